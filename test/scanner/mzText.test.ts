// A file whose first bytes are `MZ` with no PE header after them is no Windows executable: the engine reads it as the
// text its name says, skipping the `MZ` line (a fifty-fifth red team's `MZ_pad=0` first line of a project.godot, and a
// `.po` and `.fnt` in attackProjects101.ts). It is read by its name's reader, so what it makes the engine load is judged;
// `MZ` followed by a PE header is still native code.
import { describe, expect, it } from "vitest"
import { concat, utf8 } from "./support/bytes.ts"
import { scan3Files } from "./support/scan.ts"

const SETTINGS = 'config_version=4\n\n[application]\n\nrun/main_scene="res://main.tscn"\n\n[autoload]\n\nEvil="*user://evil.gd"\n'

describe("a file starting with MZ and no PE header", () => {
  it("is read as the settings it is, its autoload from user:// an error", async () => {
    const found = await scan3Files({ "res://project.godot": `MZ_pad=0\n${SETTINGS}` })
    expect(found.some((f) => f.startsWith("res://project.godot:10 error"))).toBe(true)
    expect(found.filter((f) => f.includes("native"))).toEqual([])
  })

  it("is native code when a PE header follows", async () => {
    const pe = new Uint8Array(0x100)
    pe.set(utf8("MZ"), 0)
    new DataView(pe.buffer).setUint32(0x3c, 0x80, true)
    pe.set(utf8("PE\0\0"), 0x80)
    const found = await scan3Files({ "res://lang/help.po": concat(pe, utf8('\nmsgid "K"\nmsgstr "Hi"\n')) })
    expect(found.some((f) => f.startsWith("res://lang/help.po: error"))).toBe(true)
  })
})
