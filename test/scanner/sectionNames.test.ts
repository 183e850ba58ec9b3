// A section name with bytes past ASCII, in the files the engine reads with its variant parser's simple tags (redirects,
// settings): Godot 3.2 builds the name byte by byte, later 3.x releases decode it as UTF-8, so `[<BOM>remap]` is
// another section to one than to the other (an eighty-sixth red team's, attackProjects133.ts, run by godot3-server).
import { describe, expect, it } from "vitest"
import { redirectFindings } from "../../adapters/scanner/checks/redirectCheck.ts"
import { readRedirect } from "../../adapters/scanner/resource/redirect.ts"
import { utf8 } from "./support/bytes.ts"
import { scan3Files } from "./support/scan.ts"

const remapWith = (header: ReadonlyArray<number>): Uint8Array => Uint8Array.from([...header, ...utf8('\npath="res://decoy.tscn"\n')])
const REMAP = [...utf8("remap")]
const bracketed = (...inner: ReadonlyArray<number>): ReadonlyArray<number> => [0x5b, ...inner, 0x5d]

describe("a redirect's section name past ASCII", () => {
  it("a byte-order mark, an overlong space, a letter past ASCII: the redirect is refused, and pack-hostile-path", () => {
    for (const header of [bracketed(0xef, 0xbb, 0xbf, ...REMAP), bracketed(...REMAP, 0xe0, 0x80, 0xa0), bracketed(...REMAP, 0xc3, 0xa9)]) {
      const text = remapWith(header)
      const read = readRedirect(text, ".remap", 3)
      expect(read.targets).toEqual([])
      expect(read.malformed).toContain("bytes past ASCII")
      expect(redirectFindings("res://towers.tscn.remap", text, () => true, 3).map((f) => `${f.file} ${f.rule}`)).toEqual(["res://towers.tscn pack-hostile-path"])
    }
  })

  it("spaces around the name, which the engine strips too (run by godot3-server): followed, no finding", () => {
    const text = remapWith(bracketed(0x20, ...REMAP, 0x20))
    expect(readRedirect(text, ".remap", 3).targets.map((t) => t.path)).toEqual(["res://decoy.tscn"])
    expect(redirectFindings("res://towers.tscn.remap", text, () => true, 3)).toEqual([])
  })
})

describe("a settings section name past ASCII", () => {
  it("`[autoload<BOM>]` in project.godot: resource-unreadable (a guard: the settings readers already read it apart)", async () => {
    const text = Uint8Array.from([...utf8('config_version=4\n\n[application]\n\nconfig/name="P"\n\n'), ...bracketed(...utf8("autoload"), 0xef, 0xbb, 0xbf), ...utf8('\n\nTowers="*res://t.gd"\n')])
    const found = await scan3Files({ "res://project.godot": text, "res://t.gd": "extends Node\n" })
    expect(found).toContain("res://project.godot: error unreadable content")
  })
})
