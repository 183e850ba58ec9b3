// Packs exported by the real engine (godot3-server) during this run: exact findings with file and line.
import { inject } from "vitest"
import { describe, expect, it } from "vitest"
import { fixturePackPath } from "../setup/godot.ts"
import { MANIFEST } from "./fixtures/godotProjects.ts"
import { withPackContents } from "./support/packEntries.ts"
import { scanFile } from "./support/scan.ts"

const root = inject("godotFixtures")
const pack = (name: string): string => fixturePackPath(root, name)

describe("scanner on packs exported by godot3-server", () => {
  it("clean: a compliant game has no findings (comments and plain strings with banned names are not findings)", async () => {
    const report = await scanFile(pack("clean"), { path: "multipart", submittedManifest: MANIFEST })
    expect(report.findings).toEqual([])
    expect(report.ok).toBe(true)
    expect(report.manifest).toEqual(MANIFEST)
    expect(report.summary).toMatchObject({ packFormat: 1, engineVersion: "3.2.3", errors: 0, warnings: 0 })
  })

  it("clean: the directory holds the text scripts, the text scene, the manifest and project.binary, and no sdk/", async () => {
    const paths = await withPackContents(pack("clean"), async (contents) => contents.entries.map((e) => e.path))
    expect(paths).toEqual([
      "res://game/base_game.gd",
      "res://game/game_base.gd",
      "res://game/main.gd",
      "res://game/main.tscn",
      "res://manifest.json",
      "res://project.binary",
    ])
  })

  it("clean: the release API path checks the declared version against manifest.json", async () => {
    const current = await scanFile(pack("clean"), { path: "release_api", declaredVersion: "1.0.0" })
    expect(current.findings.map((f) => f.rule)).toEqual([])
    const stale = await scanFile(pack("clean"), { path: "release_api", declaredVersion: "1.0.1" })
    expect(stale.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual(["res://manifest.json:4 manifest-not-current"])
  })

  it("clean: a submitted manifest that differs from the packed one makes the pack not current", async () => {
    const report = await scanFile(pack("clean"), { path: "multipart", submittedManifest: { ...MANIFEST, version: "2.0.0" } })
    expect(report.findings.map((f) => [f.file, f.line, f.rule])).toEqual([["res://manifest.json", 4, "manifest-not-current"]])
    expect(report.findings[0]?.message).toContain("(fields: version)")
  })

  it("violations: every banned API, reserved path, native file and the wrong root script, at their lines", async () => {
    const report = await scanFile(pack("violations"))
    expect(report.findings.map((f) => `${f.file}${f.line === null ? "" : `:${f.line}:${f.column}`} ${f.severity} ${f.rule} ${f.pattern}`)).toEqual([
      "res://bin/plugin.gdnlib error native-code .gdnlib",
      "res://core/net.gd error reserved-path core/",
      "res://game/banned.gd:6:2 error banned-api OS.execute / OS.create_process / OS.create_instance",
      "res://game/banned.gd:8:3 warning banned-api OS.shell_open / OS.shell_show_in_file_manager",
      "res://game/banned.gd:9:2 error banned-api OS.kill",
      "res://game/banned.gd:10:2 error banned-api OS.set_environment / OS.unset_environment",
      "res://game/banned.gd:11:2 error banned-api ProjectSettings.load_resource_pack",
      "res://game/banned.gd:12:2 error banned-api ProjectSettings.save / ProjectSettings.save_custom",
      "res://game/banned.gd:13:10 error banned-api Expression",
      "res://game/banned.gd:14:10 error banned-api GDScript.new",
      "res://game/banned.gd:15:2 error banned-api source_code assignment",
      "res://game/banned.gd:16:2 error banned-api JavaScriptBridge / JavaScript (Godot 3)",
      "res://game/banned.gd:17:10 error banned-api HTTPRequest / HTTPClient / TCP / UDP / WebSocket / WebRTC / ENet",
      "res://game/banned.gd:18:10 error banned-api HTTPRequest / HTTPClient / TCP / UDP / WebSocket / WebRTC / ENet",
      "res://game/banned.gd:19:10 error banned-api HTTPRequest / HTTPClient / TCP / UDP / WebSocket / WebRTC / ENet",
      "res://game/banned.gd:20:12 error banned-api HTTPRequest / HTTPClient / TCP / UDP / WebSocket / WebRTC / ENet",
      "res://game/banned.gd:21:10 error banned-api HTTPRequest / HTTPClient / TCP / UDP / WebSocket / WebRTC / ENet",
      "res://game/banned.gd:22:10 error banned-api HTTPRequest / HTTPClient / TCP / UDP / WebSocket / WebRTC / ENet",
      "res://game/banned.gd:23:10 error banned-api HTTPRequest / HTTPClient / TCP / UDP / WebSocket / WebRTC / ENet",
      "res://game/banned.gd:24:10 error banned-api HTTPRequest / HTTPClient / TCP / UDP / WebSocket / WebRTC / ENet",
      "res://game/banned.gd:25:11 error banned-api IP.resolve_hostname",
      "res://game/banned.gd:27:2 error banned-api FileAccess/File or DirAccess/Directory outside res:// and user://",
      "res://game/banned.gd:29:2 error banned-api FileAccess/File or DirAccess/Directory outside res:// and user://",
      "res://game/banned.gd:30:13 error banned-api get_var(true) / decode_var(…, true)",
      "res://game/banned.gd:31:10 error banned-api bytes_to_var_with_objects / str_to_var / str2var",
      "res://game/banned.gd:32:10 error banned-api Marshalls.base64_to_variant(…, true)",
      "res://game/banned.gd:33:2 error banned-api OS.execute / OS.create_process / OS.create_instance",
      "res://game/banned.gd:34:11 error banned-api GDExtensionManager / NativeScript / GDNative",
      "res://game/banned.gd:35:2 warning banned-api FileAccess/File or DirAccess/Directory outside res:// and user://",
      "res://game/level.tscn:7:2 warning banned-api OS.shell_open / OS.shell_show_in_file_manager",
      "res://game/level.tscn:13:1 error banned-api HTTPRequest / HTTPClient / TCP / UDP / WebSocket / WebRTC / ENet",
      "res://game/main.gd:1:9 error entry-scene-not-engine-game EngineGame",
      "res://sdk/engine_game.gd error reserved-path sdk/",
      "res://sdk/engine_game.gd:2:12 error entry-scene-not-engine-game class_name EngineGame",
    ])
    expect(report.summary.countsByRule).toEqual({
      "banned-api": 29,
      "entry-scene-not-engine-game": 2,
      "native-code": 1,
      "reserved-path": 2,
    })
    expect(report.summary).toMatchObject({ errors: 31, warnings: 3 })
  })

  it("violations: the guarded, dynamic and unproven calls carry messages that say why", async () => {
    const report = await scanFile(pack("violations"))
    const at = (line: number) => report.findings.find((f) => f.file === "res://game/banned.gd" && f.line === line)?.message ?? ""
    // A constant https:// address: a warning that shows it (docs/scanner.md#os-shell).
    expect(at(8)).toMatch(/^OS\.shell_open\("https:\/\/example\.com"\): .*opens the constant web address https:\/\/example\.com/)
    expect(at(33)).toMatch(/^call\("execute"\): Starts programs/)
    expect(at(35)).toContain("path argument 1 is not a string literal")
    expect(report.findings.some((f) => f.line === 3 || f.line === 5)).toBe(false)
  })

  it("violations: the built-in script of level.tscn is reported at the .tscn line, not the script line", async () => {
    const report = await scanFile(pack("violations"))
    const shell = report.findings.filter((f) => f.file === "res://game/level.tscn" && f.rule === "banned-api")
    expect(shell[0]).toMatchObject({ line: 7, column: 2 })
    expect(shell[0]?.embeddedIn).toBeUndefined()
  })

  it("compiled: script_export_mode=1 gives .gdc files behind .remap stubs, each a finding naming the preset key", async () => {
    const report = await scanFile(pack("compiled"))
    expect(report.findings.map((f) => [f.file, f.storedPath, f.rule])).toEqual([
      ["res://game/base_game.gd", "res://game/base_game.gdc", "compiled-script"],
      ["res://game/game_base.gd", "res://game/game_base.gdc", "compiled-script"],
      ["res://game/main.gd", "res://game/main.gdc", "compiled-script"],
      ["res://game/main.tscn", undefined, "entry-scene-unverifiable"],
    ])
    for (const f of report.findings.filter((x) => x.rule === "compiled-script")) {
      expect(f.message).toContain("set script_export_mode=0")
      expect(f.message).toContain('name="Summer Game PCK"')
    }
  })
})
