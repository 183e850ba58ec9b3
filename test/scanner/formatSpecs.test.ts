// String's `%` read as the engine reads its format (String::sprintf, core/ustring.cpp in 3.x, core/string/ustring.cpp
// in 4.x), and what the analysis concludes from it: numbers only, the known start and end (nineteenth red team's
// `"%-%%s"` and `"%.*s"`, attackProjects50.ts, run by godot3-server).
import { describe, expect, it } from "vitest"
import { type FormatPart, isNumeric, parseFormat, textAfterLast } from "../../adapters/scanner/gdscript/formatSpecs.ts"
import { lines } from "./fixtures/godotProjects.ts"
import { scan3Files } from "./support/scan.ts"

const kinds = (parts: ReadonlyArray<FormatPart> | null): ReadonlyArray<string> | null => parts?.map((p) => (p.k === "text" ? JSON.stringify(p.text) : p.k)) ?? null

describe("parseFormat", () => {
  it("a `%` after flags or a width is a literal percent sign, and what follows is read afresh", () => {
    expect(kinds(parseFormat("%-%%s", 3))).toEqual(['"%"', "string"])
    expect(kinds(parseFormat("a%5%b", 3))).toEqual(['"a%b"'])
    expect(kinds(parseFormat("%%d", 3))).toEqual(['"%d"'])
  })

  it("`*` takes a value (a width or precision) and the conversion goes on", () => {
    expect(kinds(parseFormat("%.*s", 3))).toEqual(["width", "string"])
    expect(kinds(parseFormat("%*.*f!", 3))).toEqual(["width", "width", "number", '"!"'])
  })

  it("numbers, strings, characters; 4.x vectors and the `u` flag", () => {
    expect(kinds(parseFormat("save_%03d.json", 3))).toEqual(['"save_"', "number", '".json"'])
    expect(kinds(parseFormat("%+-8.2f%x%X%o", 3))).toEqual(["number", "number", "number", "number"])
    expect(kinds(parseFormat("%c%s", 3))).toEqual(["char", "string"])
    expect(kinds(parseFormat("%v", 4))).toEqual(["vector"])
    expect(kinds(parseFormat("%ud", 4))).toEqual(["number"])
  })

  it("what the engine refuses: an unknown type, a second point, a `%` left open; `v` and `u` in 3.x", () => {
    for (const format of ["%i", "%e", "%g", "% d", "%1.2.3f", "100%", "%-", "%v", "%ud"]) expect(parseFormat(format, 3), format).toBeNull()
    expect(parseFormat("%i", 4)).toBeNull()
  })

  it("the text after the last conversion is the end a path keeps", () => {
    const end = (f: string): string => textAfterLast(parseFormat(f, 3) ?? [])
    expect(end("save_%03d.json")).toBe(".json")
    expect(end("user://%-%%s.json")).toBe(".json")
    expect(end("%d%%.tres")).toBe("%.tres")
    expect((parseFormat("%-%%s", 3) ?? []).every((p) => p.k === "text" || isNumeric(p))).toBe(false)
  })
})

describe("the analysis reads formats as the engine does", () => {
  const rtl = (put: string) =>
    scan3Files({
      "res://game/hud.gd": lines("extends Node", "func _ready():", '\tvar x = ProjectSettings.get("game/skin")', "\tvar l = RichTextLabel.new()", "\tl.bbcode_enabled = true", `\tl.bbcode_text = ${put}`),
      // A write a load reads as code: BBCode built at run time that may hold a whole tag is then an error.
      "res://game/save.gd": lines("extends Node", "func _ready():", '\tResourceSaver.save("user://settings.tres", Resource.new())'),
    })

  it("a string put in through `%-%%s` or `%.*s` may hold a whole tag; numbers only hold none", async () => {
    expect(await rtl('"%-%%s" % x')).toContain("res://game/hud.gd:6 error runtime-code-loading")
    expect(await rtl('"%.*s" % [3, x]')).toContain("res://game/hud.gd:6 error runtime-code-loading")
    expect(await rtl('"HP: %-5d (%+.1f%%)" % [x, x]')).not.toContain("res://game/hud.gd:6 error runtime-code-loading")
  })

  it("a level picked by number stays a warning in a pack that saves a .tres; a number in a path that climbs does not", async () => {
    const game = (path: string) =>
      scan3Files({
        "res://game/level_1.tscn": lines("[gd_scene format=2]", "", '[node name="Level1" type="Node2D"]'),
        // `level` is also given what callers out of sight pass: not only numbers (a `%d` of it still is).
        "res://game/levels.gd": lines("extends Node", "var level = 1", "func _ready():", '\tResourceSaver.save("user://settings.tres", Resource.new())', "\tlevel += 1", `\tget_tree().change_scene(${path} % level)`, "func set_level(v):", "\tlevel = v"),
      })
    expect(await game('"res://game/level_%d.tscn"')).toContain("res://game/levels.gd:6 warning runtime-code-loading")
    for (const climbing of ['"res://game/../../level_%d.tscn"', '"res://game//level_%d.tscn"', '"res://%s.tscn"']) {
      expect(await game(climbing), climbing).toContain("res://game/levels.gd:6 error runtime-code-loading")
    }
  })
})
