// check-preset's rules on export_presets.cfg text (spec §1's table).
import { describe, expect, it } from "vitest"
import { checkPresetText } from "../../adapters/scanner/preset/checkPreset.ts"
import { matchesGlob } from "../../adapters/scanner/preset/godotGlob.ts"

const preset = (lines: ReadonlyArray<string>) => ["[preset.0]", "", 'name="Web"', 'platform="Web"', "", "[preset.1]", "", ...lines, "", "[preset.1.options]", 'script_export_mode=1', ""].join("\n")
const GOOD = ['name="Summer Game PCK"', 'platform="Linux/X11"', 'export_filter="all_resources"', 'include_filter="manifest.json, *.txt"', 'exclude_filter="sdk/*, core/*"', "script_export_mode=0"]

describe("checkPresetText", () => {
  it("a compliant preset has no problems (other presets do not matter)", () => {
    expect(checkPresetText(preset(GOOD), ["core"])).toEqual([])
  })

  it("each problem names its line and the line to write", () => {
    const problems = checkPresetText(
      preset(['name="Summer Game PCK"', 'export_filter="resources"', 'include_filter="*.txt"', 'exclude_filter=""', "script_export_mode=2"]),
      ["server"],
    )
    expect(problems.map((p) => [p.rule, p.line, p.fix])).toEqual([
      ["preset-export-filter", 9, 'export_filter="all_resources"'],
      ["preset-include-filter", 10, 'include_filter="*.txt, manifest.json"'],
      ["preset-exclude-filter", 11, 'exclude_filter="sdk/*, server/*"'],
      ["preset-script-export-mode", 12, "script_export_mode=0"],
    ])
  })

  it("an absent script_export_mode is a problem (Godot's default is compiled tokens)", () => {
    const [p] = checkPresetText(preset(GOOD.filter((l) => !l.startsWith("script_export_mode"))), [])
    expect(p).toMatchObject({ rule: "preset-script-export-mode", line: 6, fix: "script_export_mode=0" })
  })

  it("no preset of that name", () => {
    expect(checkPresetText(preset(['name="Linux"']), []).map((p) => [p.rule, p.line])).toEqual([["preset-missing", 3]])
    expect(checkPresetText("", []).map((p) => [p.rule, p.line])).toEqual([["preset-missing", null]])
  })

  it("filters match like Godot: case-insensitive, * spans folders, ? never matches a dot", () => {
    expect(matchesGlob("SDK/*", "sdk/a/b.gd")).toBe(true)
    expect(matchesGlob("*.json", "manifest.json")).toBe(true)
    expect(matchesGlob("manifest?json", "manifest.json")).toBe(false)
    expect(matchesGlob("res://sdk/*", "res://sdk/x")).toBe(true)
    expect(matchesGlob("", "x")).toBe(false)
  })
})
