// A text resource's string that Godot 3 cannot decode once its escapes are read: the engine keeps each `\uXXXX`
// escape's low byte, decodes the whole as UTF-8 and ignores a failure, which leaves the string half decoded (an
// eighty-seventh red team's built-in script read twice from the overlongs on, attackProjects133.ts, run by
// godot3-server). Such a string makes the resource unreadable; escapes that decode are read as the engine reads them.
import { describe, expect, it } from "vitest"
import { VariantTextParser } from "../../adapters/scanner/resource/variantText.ts"
import { engineLines } from "../../adapters/scanner/text/engineLines.ts"
import { utf8 } from "./support/bytes.ts"
import { scan3Files } from "./support/scan.ts"

const stringsOf = (text: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  const parser = new VariantTextParser(3, { tag: () => {}, assign: (_key, value) => void (value.k === "str" && out.push(value.value)) })
  parser.feed(new TextEncoder().encode(text))
  parser.finish()
  return out
}

describe("strings Godot 3 decodes half", () => {
  it("bytes Godot 3 counts as sequences and then fails to decode (a lead byte before a letter): the reader refuses the text", () => {
    for (const value of ["\\u04e0\\u0481\\u04a1\\u04c3x", "Caf\\u00e9 \\\"Le Chat\\\"", "\\u00c3x"]) {
      expect(() => stringsOf(`[resource]\nname = "${value}"\n`), value).toThrow(/decodes only part-way/)
    }
  })

  it("escapes whose low bytes are UTF-8 (`\\u00c3\\u00a9` is é, an overlong `\\u04e0\\u0481\\u04a1` is a): read as the engine reads them", () => {
    expect(stringsOf('[resource]\nname = "caf\\u00c3\\u00a9 \\u0041 \\u04e0\\u0481\\u04a1"\n')).toEqual(["café A a"])
  })

  it("bytes Godot 3's first pass refuses (`\\u00e9` at the end, `\\u00b0C`): the characters as the escapes name them (run by godot3-server: an eighty-eighth hunt's labels)", () => {
    expect(stringsOf('[resource]\nname = "Caf\\u00e9"\nb = "Outside: 25\\u00b0C"\nc = "\\u00a9 2020"\n')).toEqual(["Café", "Outside: 25°C", "© 2020"])
  })

  it("in a scene's built-in script: resource-unreadable", async () => {
    const scene = '[gd_scene load_steps=2 format=2]\n\n[sub_resource type="GDScript" id=1]\nscript/source = "extends Node\n# \\u04e0\\u0481\\u04a1\\u04c3x\n"\n\n[node name="T" type="Node"]\nscript = SubResource( 1 )\n'
    expect(await scan3Files({ "res://t.tscn": scene })).toContain("res://t.tscn: error unreadable content")
  })

  describe("lines a `.po` or `.fnt` reader gets (FileAccess::get_line, then String::utf8 of each line)", () => {
    const bytes = (...parts: ReadonlyArray<string | number>): Uint8Array => Uint8Array.from(parts.flatMap((p) => (typeof p === "number" ? [p] : [...utf8(p)])))

    it("a line Godot 3 decodes only part-way (`\\xC3X`): refused, for Godot 3 only", () => {
      expect(() => engineLines(bytes('msgstr "[img]user://x.tres[/img]" ', 0xc3, "X\n"), 3)).toThrow(/decodes only part-way/)
      expect(engineLines(bytes("a ", 0xc3, "X\nb"), 4)).toEqual(["a \ufffd", "b"])
    })

    it("a line Godot 3's first pass refuses (a lead byte before the line break): empty, the next line read as it is", () => {
      expect(engineLines(bytes("# note", 0xc3, '\nmsgstr "x"\r\n'), 3)).toEqual(["", 'msgstr "x"', ""])
    })

    it("a `.po` and a `.fnt` holding such a line: resource-unreadable", async () => {
      const found = await scan3Files({
        "res://t.po": bytes('msgid ""\nmsgstr ""\n\nmsgid "A"\nmsgstr "[img]user://x.tres[/img]" ', 0xc3, "X\n"),
        "res://f.fnt": bytes('page id=0 file="a.png" a=', 0xc3, 'X file="b.png"\n'),
      })
      expect(found).toContain("res://t.po: error unreadable content")
      expect(found).toContain("res://f.fnt: error unreadable content")
    })
  })
})
