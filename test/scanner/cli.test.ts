// The creator-side commands, run through their `run(argv, io)` entry points.
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, inject, it } from "vitest"
import { command as check } from "../../apps/cli/commands/check.ts"
import { command as checkPreset } from "../../apps/cli/commands/checkPreset.ts"
import { commands } from "../../apps/cli/commands.ts"
import { fixturePackPath, fixtureProjectPath } from "../setup/godot.ts"
import { MANIFEST } from "./fixtures/godotProjects.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"

const fixtures = inject("godotFixtures")
const scratch = join(inject("runDir"), "cli")
mkdirSync(scratch, { recursive: true })

const run = async (cmd: typeof check, argv: ReadonlyArray<string>) => {
  let stdout = ""
  let stderr = ""
  const code = await cmd.run(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: {}, stderrIsTty: false })
  return { code, stdout, stderr }
}

const file = (name: string, content: string | Uint8Array): string => {
  const path = join(scratch, name)
  writeFileSync(path, content)
  return path
}

describe("check", () => {
  it("is registered in the command table", async () => {
    expect(await commands.check?.()).toBe(check)
    expect(await commands["check-preset"]?.()).toBe(checkPreset)
  })

  it("exit 0 for a clean pack, with the submitted manifest", async () => {
    const manifest = file("manifest.json", JSON.stringify(MANIFEST))
    const result = await run(check, [fixturePackPath(fixtures, "clean"), "--manifest", manifest])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^0 error\(s\), 0 warning\(s\); pack format 1, engine 3\.2\.3, 6 entries; read \d+ of \d+ bytes\.\n$/)
  })

  it("exit 1 with one `file:line rule message` line per finding", async () => {
    const result = await run(check, [fixturePackPath(fixtures, "violations")])
    expect(result.code).toBe(1)
    const lines = result.stdout.trim().split("\n")
    expect(lines).toHaveLength(35)
    expect(lines[0]).toMatch(/^res:\/\/bin\/plugin\.gdnlib native-code res:\/\/bin\/plugin\.gdnlib is native or binary code/)
    expect(lines).toContain(
      "res://game/banned.gd:33 banned-api call(\"execute\"): Starts programs on the player's machine outside the game. Remove it; see docs/scanner.md#os-process (policy os-process). (docs: os-process)",
    )
    expect(lines.find((l) => l.startsWith("res://game/banned.gd:35 "))).toContain("banned-api (warning) File.open(…)")
  })

  it("with --url each finding names its page on that service instead of the id", async () => {
    const result = await run(check, [fixturePackPath(fixtures, "violations"), "--url", "https://pckgate.example.com/"])
    const lines = result.stdout.trim().split("\n")
    expect(lines.find((l) => l.startsWith("res://game/banned.gd:33 "))).toMatch(/ \(docs: https:\/\/pckgate\.example\.com\/docs\/rules\/os-process\)$/)
    expect(lines[0]).toMatch(/ \(docs: https:\/\/pckgate\.example\.com\/docs\/rules\/native-code\)$/)
  })

  it("--json prints {ok, findings, summary}", async () => {
    const result = await run(check, [fixturePackPath(fixtures, "compiled"), "--json"])
    expect(result.code).toBe(1)
    const json = JSON.parse(result.stdout)
    expect(Object.keys(json)).toEqual(["ok", "findings", "summary"])
    expect(json.ok).toBe(false)
    expect(json.findings.map((f: { rule: string }) => f.rule)).toEqual(["compiled-script", "compiled-script", "compiled-script", "entry-scene-unverifiable"])
    expect(json.summary.countsByRule).toEqual({ "compiled-script": 3, "entry-scene-unverifiable": 1 })
  })

  it("--manifest that differs from the packed manifest: exit 1, manifest-not-current", async () => {
    const manifest = file("stale.json", JSON.stringify({ ...MANIFEST, version: "0.9.0" }))
    const result = await run(check, [fixturePackPath(fixtures, "clean"), "--manifest", manifest])
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^res:\/\/manifest\.json:4 manifest-not-current /)
  })

  it("--release-version applies the release API rules", async () => {
    expect((await run(check, [fixturePackPath(fixtures, "clean"), "--release-version", "1.0.0"])).code).toBe(0)
    const small = file("small.pck", writePack({ format: 2, entries: [{ path: "manifest.json", data: utf8("{}") }] }))
    const result = await run(check, [small, "--release-version", "1.0.0", "--json"])
    expect(JSON.parse(result.stdout).findings.map((f: { rule: string }) => f.rule)).toContain("pack-size")
  })

  it("a damaged or truncated pack is a finding: exit 1, and the pack's own findings name the file", async () => {
    const truncated = file("cut.pck", writePack({ format: 2, entries: [{ path: "manifest.json", data: utf8("{}") }] }).subarray(0, 50))
    const result = await run(check, [truncated])
    expect(result.code).toBe(1)
    expect(result.stdout.split("\n")[0]).toMatch(new RegExp(`^${truncated.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} pack-truncated `))
  })

  it("exit 2 when it cannot check: usage, missing file, not a pack, unreadable manifest or policy", async () => {
    const notPack = file("readme.pck", "hello, I am text")
    const badJson = file("bad.json", "{")
    const cases: ReadonlyArray<[ReadonlyArray<string>, RegExp]> = [
      [[], /missing <file\.pck>/],
      [["a.pck", "b.pck"], /unexpected argument b\.pck/],
      [["--frobnicate", "a.pck"], /unknown option --frobnicate/],
      [["a.pck", "--manifest"], /--manifest needs a value/],
      [[join(scratch, "nope.pck")], /no such file/],
      [[notPack], /is not a Godot pack/],
      [[fixturePackPath(fixtures, "clean"), "--manifest", badJson], /is not valid JSON/],
      [[fixturePackPath(fixtures, "clean"), "--policy", badJson], /policy .* is invalid/],
    ]
    for (const [argv, message] of cases) {
      const result = await run(check, argv)
      expect(result.code, argv.join(" ")).toBe(2)
      expect(result.stderr).toMatch(message)
      expect(result.stdout).toBe("")
    }
  })
})

describe("check-preset", () => {
  it("exit 0 for the clean project's preset", async () => {
    const result = await run(checkPreset, [join(fixtureProjectPath(fixtures, "clean"), "export_presets.cfg")])
    expect(result.code).toBe(0)
  })

  it("exit 1 with the line to change: compiled scripts and an unfiltered sdk/, core/", async () => {
    const compiled = await run(checkPreset, [join(fixtureProjectPath(fixtures, "compiled"), "export_presets.cfg")])
    expect(compiled.code).toBe(1)
    expect(compiled.stdout).toContain("export_presets.cfg:11 preset-script-export-mode script_export_mode is 1; GDScript must ship as readable text. Write: script_export_mode=0")
    const violations = await run(checkPreset, [join(fixtureProjectPath(fixtures, "violations"), "export_presets.cfg"), "--json"])
    expect(violations.code).toBe(1)
    expect(JSON.parse(violations.stdout).problems).toEqual([
      expect.objectContaining({ rule: "preset-exclude-filter", line: 9, fix: 'exclude_filter="sdk/*, core/*"' }),
    ])
  })

  it("exit 2 for usage errors and unreadable files", async () => {
    expect((await run(checkPreset, [])).code).toBe(2)
    expect((await run(checkPreset, [join(scratch, "missing.cfg")])).code).toBe(2)
  })
})
