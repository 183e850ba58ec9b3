// Property-based, for what red teamer 13b got past pckgate-scanner/12 (attackProjects26.ts holds the packs the engine
// ran): project.binary keys holding `=`, `[`, `]`, `"`, `;`, line breaks or spaces. The decoded text the review pages
// show must give back exactly the decoded keys when read as the engine reads project.godot, so a key never hides the
// settings after it. Pure decoding on bytes written by the test's ECFG writer.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { projectSettingsFindings } from "../../adapters/scanner/checks/projectSettingsCheck.ts"
import { readProjectBinary } from "../../adapters/scanner/packFiles/projectBinary.ts"
import { parseConfigFile } from "../../adapters/scanner/preset/configFile.ts"
import { writeProjectBinary } from "./support/projectBinaryWriter.ts"

/** Keys built from the characters that open brackets, strings, comments, assignments and lines. */
const hostileKey = fc
  .array(fc.constantFrom("=", "[", "]", '"', ";", "\n", "\r", " ", "\\", "#", "/", "x", "é", "{", "("), { minLength: 1, maxLength: 8 })
  .map((chars) => chars.join(""))
  .filter((k) => k.trim() !== "" && !k.endsWith("/"))

const decodedKeys = (text: string): ReadonlyArray<string> => parseConfigFile(text).flatMap((s) => [...s.values.values()].map((v) => (s.name === "" ? v.key : `${s.name}/${v.key}`)))

describe("project.binary keys that look like syntax (red team 13b)", () => {
  it("the decoded text reads back as exactly the decoded keys, and a later autoload is still judged at its line", () => {
    fc.assert(
      fc.property(fc.array(hostileKey, { minLength: 1, maxLength: 4 }), fc.boolean(), (keys, sectioned) => {
        const unique = [...new Set(keys.map((k) => (sectioned ? `a${k}` : k)))]
        const settings: ReadonlyArray<readonly [string, string]> = [...unique.map((k) => [k, "[" ] as const), ["autoload/Boot", "*user://boot.gd"], ["logging/file_logging/log_path", "/tmp/x.log"]]
        const decoded = readProjectBinary(writeProjectBinary(settings), 3)
        expect(decoded).not.toBeNull()
        const text = decoded?.text ?? ""
        expect([...decodedKeys(text)].sort()).toEqual(settings.map(([k]) => k).sort())
        const findings = projectSettingsFindings(text, "res://project.binary", "res://project.binary")
        const lineOf = (needle: string): number => text.split("\n").findIndex((l) => l.startsWith(needle)) + 1
        expect(findings.map((f) => `${f.line} ${f.pattern}`)).toEqual(expect.arrayContaining([`${lineOf("Boot=")} project setting autoload/Boot`, `${lineOf("file_logging/log_path=")} project setting logging/file_logging/log_path`]))
      }),
      { numRuns: 300 },
    )
  })

  it("reads a quoted project.godot key as the engine does: `\"x=[\" = 1` is the key x=[ and swallows nothing", () => {
    const sections = parseConfigFile(['"x=[" = 1', "", "[autoload]", "", 'Boot="*user://boot.gd"'].join("\n"))
    expect(sections.map((s) => [s.name, [...s.values.keys()]])).toEqual([
      ["", ["x=["]],
      ["autoload", ["Boot"]],
    ])
  })

  it("judges a feature override as the setting before the key's first dot, whatever the features hold (ProjectSettings::_set)", () => {
    const feature = fc.array(fc.constantFrom("64", "pc", "X11", "hdr/v2", "a/b", "mobile", "x"), { minLength: 1, maxLength: 3 }).map((f) => `.${f.join(".")}`)
    const settings: ReadonlyArray<readonly [string, string, string]> = [
      ["rendering", "environment/default_environment", '"user://sky.tres"'],
      ["logging", "file_logging/log_path", '"/tmp/x.log"'],
      ["autoload", "Boot", '"*user://boot.gd"'],
      ["application", "config/project_settings_override", '"user://o.cfg"'],
    ]
    fc.assert(
      fc.property(fc.constantFrom(...settings), feature, ([section, name, value], suffix) => {
        const text = ["config_version=4", "", `[${section}]`, "", `${name}${suffix}=${value}`].join("\n")
        expect(projectSettingsFindings(text, "res://project.godot", "res://project.godot").map((f) => f.line)).toContain(5)
      }),
    )
  })
})
