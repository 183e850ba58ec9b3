// Which settings files name the autoloads and global classes (a seventy-eighth red team's, run by godot3-server in
// attackProjects129.ts). Godot 3.2 starts from project.godot, or project.binary where there is none, Godot 4 the other
// way round (ProjectSettings::_load_settings_text_or_binary; a ninety-fifth red team ran a pack holding both); it reads `res://override.cfg` over them only where the pack is the
// resource folder (Android, iOS: ProjectSettings::_setup), and Godot 3 never reads Godot 4's class cache. A decoy
// autoload in a file the engine does not start from must not stand for the autoload's script, and an autoload or a
// class list in the pack's override.cfg is an error of its own.
import { describe, expect, it } from "vitest"
import { ByteBuilder, utf8 } from "./support/bytes.ts"
import { stringVariant, writeProjectBinary, writeProjectBinaryVariants } from "./support/projectBinaryWriter.ts"
import { scan3Files } from "./support/scan.ts"

const GOOD = 'extends Node\nconst ON_BUILD = {"go": "get_name"}\n'
const EVIL = 'extends Node\nconst ON_BUILD = {"go": "execute"}\n'
const USE = 'extends Node\nfunc _ready():\n\tOS.callv(Towers.ON_BUILD["go"], ["touch", ["/tmp/x"]])\n'
const settings = (towers: string): string => `[application]\n\nconfig/name="P"\n\n[autoload]\n\nTowers="*${towers}"\n`

const errorsOf = async (files: Readonly<Record<string, string | Uint8Array>>): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://good.gd": GOOD, "res://evil.gd": EVIL, "res://use.gd": USE, ...files })).filter((f) => f.split(" ")[1] === "error")

describe("settings files the engine may not read", () => {
  it("an autoload in the pack's override.cfg: pack-hostile-path there, and the project's own autoload judged", async () => {
    const found = await errorsOf({ "res://project.godot": settings("res://evil.gd"), "res://override.cfg": "[autoload]\n\nTowers=\"*res://good.gd\"\n" })
    expect(found).toContain("res://override.cfg:3 error project setting autoload/Towers")
    expect(found).toContain("res://use.gd:3 error os-process")
  })

  it("a class list in the pack's override.cfg: pack-hostile-path", async () => {
    const list = '_global_script_classes=[ {\n"base": "Node",\n"class": "Towers",\n"language": "GDScript",\n"path": "res://good.gd"\n} ]\n'
    expect(await errorsOf({ "res://project.godot": settings("res://evil.gd"), "res://override.cfg": list })).toContain("res://override.cfg:1 error project setting _global_script_classes")
  })

  it("an autoload in Godot 4's class cache of a Godot 3 pack is not the autoload", async () => {
    const found = await errorsOf({ "res://project.godot": settings("res://evil.gd"), "res://.godot/global_script_class_cache.cfg": "[autoload]\n\nTowers=\"*res://good.gd\"\n" })
    expect(found).toContain("res://use.gd:3 error os-process")
  })

  it("project.godot and project.binary naming different scripts for one autoload: resource-unreadable, either way round", async () => {
    for (const [inBinary, inText] of [["res://evil.gd", "res://good.gd"], ["res://good.gd", "res://evil.gd"]] as const) {
      const binary = writeProjectBinary([["application/config/name", "P"], ["autoload/Towers", `*${inBinary}`]])
      expect(await errorsOf({ "res://project.binary": binary, "res://project.godot": settings(inText) })).toContain("res://project.godot: error unreadable content")
    }
    // Guard: the two files of one export (a preset's include filter `*` takes project.godot too) agree.
    const same = writeProjectBinary([["application/config/name", "P"], ["autoload/Towers", "*res://good.gd"]])
    expect(await errorsOf({ "res://project.binary": same, "res://project.godot": settings("res://good.gd") })).toEqual([])
  })

  it("project.godot beside a project.binary is read by Godot 3: its autoloads are judged, and it must name the project", async () => {
    const binary = writeProjectBinary([["application/config/name", "P"]])
    expect(await errorsOf({ "res://project.binary": binary, "res://project.godot": settings("res://evil.gd") })).toContain("res://use.gd:3 error os-process")
    // A ninety-fifth red team's: a nameless project.godot put user:// in the working folder, where the game wrote a script.
    const nameless = await errorsOf({ "res://project.binary": binary, "res://project.godot": '[application]\n\nrun/main_scene="res://main.tscn"\n' })
    expect(nameless.filter((f) => f.startsWith("res://project.godot:"))).not.toEqual([])
  })

  it("settings text the engine reads otherwise than a line reader (a seventy-ninth red team's): resource-unreadable", async () => {
    const base = settings("res://good.gd")
    for (const tail of [
      '\n[autoload] ; more\nTowers="*res://evil.gd"\n',
      '\n[autoload]\nTowers="*res://good.gd" ; [\nTowers="*res://evil.gd" ; ]\n',
      '\n[autoload]\nTowers="*res://good.gd" Towers="*res://evil.gd"\n',
      '\n[autoload]\nTowers= ; "*res://good.gd"\n"*res://evil.gd"\n',
      '\n[autoload] Towers="*res://evil.gd"\n',
    ]) {
      expect(await errorsOf({ "res://project.godot": `${base}${tail}` }), tail).toContain("res://project.godot: error unreadable content")
    }
  })

  it("a setting set twice in settings text (an eighty-fourth red team's): resource-unreadable, wherever the second is", async () => {
    const godot = (top: string, tail: string): string => `config_version=4\n${top}\n[application]\n\nconfig/name="P"\n\n[autoload]\n\nTowers="*res://good.gd"\n${tail}`
    for (const [top, tail] of [
      ['autoload/Towers="*res://good.gd"\n', ""],
      ["", '\n[autoload]\n\nTowers="*res://good.gd"\n'],
      ["", 'Towers="*res://evil.gd"\n'],
      ["", '\n[application]\n\nconfig/name="Q"\n'],
    ] as const) {
      expect(await errorsOf({ "res://project.godot": godot(top, tail) }), `${top}|${tail}`).toContain("res://project.godot: error unreadable content")
    }
  })

  it("two settings naming one autoload (`Towers` and `Towers/x`), in text or project.binary: resource-unreadable", async () => {
    expect(await errorsOf({ "res://project.godot": `${settings("res://good.gd")}Towers/x="*res://evil.gd"\n` })).toContain("res://project.godot: error unreadable content")
    expect(await errorsOf({ "res://project.godot": `${settings("res://good.gd")}Towers/x="*res://evil.gd"\n` })).not.toContain("res://use.gd:3 error os-process")
    const binary = writeProjectBinary([["application/config/name", "P"], ["autoload/Towers", "*res://evil.gd"], ["autoload/Towers/x", "*res://good.gd"]])
    expect(await errorsOf({ "res://project.binary": binary })).toContain("res://project.binary: error unreadable content")
  })

  it("settings text starting with a byte-order mark (an eighty-fifth red team's): resource-unreadable", async () => {
    const text = '[autoload]\nTowers="*res://good.gd"\nautoload/Towers="*res://evil.gd"\n\n[application]\n\nconfig/name="P"\n'
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)])
    expect(await errorsOf({ "res://project.godot": withBom })).toContain("res://project.godot: error unreadable content")
    expect(await errorsOf({ "res://project.godot": settings("res://good.gd"), "res://override.cfg": new Uint8Array([0xef, 0xbb, 0xbf, ...utf8("[display]\n")]) })).toContain("res://override.cfg: error unreadable content")
  })

  it("a key with bytes past ASCII (Godot 3 reads a key byte by byte, its strings as UTF-8): resource-unreadable", async () => {
    expect(await errorsOf({ "res://project.godot": `${settings("res://good.gd")}Töwers="*res://evil.gd"\n` })).toContain("res://project.godot: error unreadable content")
  })

  it("an autoload's feature overrides (`Towers.Android`) are one autoload, not a clash: its table is left unread as before", async () => {
    const found = await errorsOf({ "res://project.godot": `${settings("res://good.gd")}Towers.Android="*res://good.gd"\n` })
    expect(found).not.toContain("res://project.godot: error unreadable content")
    expect(found).toContain("res://use.gd:3 error dynamic-dispatch")
  })

  it("settings as the editor writes them, comments on lines of their own and values over several lines: read alike", async () => {
    const list = '_global_script_classes=[ {\n"base": "Node",\n"class": "Towers2",\n"language": "GDScript",\n"path": "res://good.gd"\n} ]\n_global_script_class_icons={\n"Towers2": ""\n}\n'
    const text = `; Engine configuration file.\n; It's best edited using the editor UI and not directly,\n\nconfig_version=4\n\n${list}\n${settings("res://good.gd")}\n[input]\n\njump={\n"deadzone": 0.5,\n"events": [  ]\n}\n`
    expect(await errorsOf({ "res://project.godot": text })).toEqual([])
  })

  describe("project.binary as the engine decodes it (an eighty-first red team's: a value it refuses leaves an earlier one standing)", () => {
    const NAME = ["application/config/name", stringVariant(utf8("P"))] as const
    const EVIL = ["autoload/Towers", stringVariant(utf8("*res://evil.gd"))] as const
    const padless = new ByteBuilder().u32(4).u32(14).bytes(utf8("*res://good.gd")).build()
    const oldNodePath = new ByteBuilder().u32(15).u32(14).bytes(utf8("*res://good.gd")).zeros(2).build()
    const unreadable = "res://project.binary: error unreadable content"

    it("a key written twice, a String without its padding, a node path in the old format: unreadable content", async () => {
      for (const value of [stringVariant(utf8("*res://good.gd")), padless, oldNodePath]) {
        expect(await errorsOf({ "res://project.binary": writeProjectBinaryVariants([NAME, EVIL, ["autoload/Towers", value]]) })).toContain(unreadable)
      }
      expect(await errorsOf({ "res://project.binary": writeProjectBinaryVariants([NAME, ["autoload/Towers", padless]]) })).toContain(unreadable)
    })

    it("an autoload whose value is not a string (an Object, an Array): its script is not known, so its table is not read", async () => {
      const object = new ByteBuilder().u32(17).bytes(stringVariant(utf8("NoSuchClass")).subarray(4)).u32(1).bytes(stringVariant(utf8("path")).subarray(4)).bytes(stringVariant(utf8("*res://good.gd"))).build()
      const array = new ByteBuilder().u32(19).u32(1).bytes(stringVariant(utf8("*res://good.gd"))).build()
      for (const value of [object, array]) {
        const found = await errorsOf({ "res://project.binary": writeProjectBinaryVariants([NAME, ["autoload/Towers", value]]) })
        expect(found).toContain("res://use.gd:3 error dynamic-dispatch")
      }
    })

    it("a node path with the obsolete flag 2 reads its extra subname, as the engine does: no error", async () => {
      const path = new ByteBuilder().u32(15).u32(0x80000001).u32(0).u32(2).bytes(stringVariant(utf8("a")).subarray(4)).bytes(stringVariant(utf8("b")).subarray(4)).build()
      expect(await errorsOf({ "res://project.binary": writeProjectBinaryVariants([NAME, ["autoload/Towers", stringVariant(utf8("*res://good.gd"))], ["application/x", path]]) })).toEqual([])
    })
  })

  it("the same autoload in the settings the engine starts from, and no override.cfg: the table read, no error", async () => {
    expect(await errorsOf({ "res://project.godot": settings("res://good.gd") })).toEqual([])
    expect(await errorsOf({ "res://project.binary": writeProjectBinary([["application/config/name", "P"], ["autoload/Towers", "*res://good.gd"]]) })).toEqual([])
  })
})
