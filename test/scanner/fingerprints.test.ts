// Finding fingerprints (issue 15): the same finding in two versions of a pack shares its fingerprint when unrelated
// lines move; changed or added lines get new ones; repeats of one line are told apart by their occurrence.
import { describe, expect, it } from "vitest"
import type { ScanReport } from "../../domain/scan/ScanReport.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const utf8 = (text: string) => new TextEncoder().encode(text)

const packOf = (scripts: Record<string, string>) =>
  writePack({ format: 1, entries: Object.entries(scripts).map(([path, text]) => ({ path, data: utf8(text) })) })

/** Banned-API findings of a script, as (line, fingerprint). */
const banned = (report: ScanReport, file: string) =>
  report.findings.filter((f) => f.rule === "banned-api" && f.file === file).map((f) => ({ line: f.line, fingerprint: f.fingerprint }))

const V1 = ["extends Node", "", "func _ready():", '\tOS.execute("ls", [])', "\tprint(1)", '\tOS.execute("ls", [])', ""].join("\n")
// Lines added above, whitespace changed on the flagged lines, and one more banned call.
const V2 = ["extends Node", "# a comment", "var x = 1", "", "func _ready():", '\tOS.execute("ls",    [])  ', "\tprint(2)", '    OS.execute("ls", [])', '\tOS.kill(1)', ""].join("\n")

describe("finding fingerprints", () => {
  it("every finding of a scan has one, and none repeats within a report", async () => {
    const report = await scanBytes(packOf({ "res://game/a.gd": V1, "res://game/b.gd": V1 }))
    expect(report.findings.length).toBeGreaterThan(2)
    expect(report.findings.every((f) => typeof f.fingerprint === "string" && /^fp_[0-9a-f]{32}$/.test(f.fingerprint))).toBe(true)
    expect(new Set(report.findings.map((f) => f.fingerprint)).size).toBe(report.findings.length)
    expect(report.scannerVersion).toBe("pckgate-scanner/59")
  })

  it("stays the same when unrelated lines move and whitespace changes; a new finding gets a new one", async () => {
    const first = banned(await scanBytes(packOf({ "res://game/a.gd": V1 })), "res://game/a.gd")
    const second = banned(await scanBytes(packOf({ "res://game/a.gd": V2 })), "res://game/a.gd")
    expect(first.map((f) => f.line)).toEqual([4, 6])
    expect(second.map((f) => f.line)).toEqual([6, 8, 9])
    // The two equal lines keep their fingerprints by occurrence; OS.kill is new.
    expect(second.slice(0, 2).map((f) => f.fingerprint)).toEqual(first.map((f) => f.fingerprint))
    expect(first.map((f) => f.fingerprint)).not.toContain(second[2]!.fingerprint)
    // Equal lines in one file are told apart.
    expect(first[0]!.fingerprint).not.toBe(first[1]!.fingerprint)
  })

  it("depends on the file and the rule: the same line in another script is another finding", async () => {
    const report = await scanBytes(packOf({ "res://game/a.gd": V1, "res://game/b.gd": V1 }))
    const a = banned(report, "res://game/a.gd").map((f) => f.fingerprint)
    const b = banned(report, "res://game/b.gd").map((f) => f.fingerprint)
    expect(a.filter((fp) => b.includes(fp))).toEqual([])
  })

  it("whole-file findings use the rule, the file and the pattern, so they match across versions", async () => {
    const notAPack = async () => (await scanBytes(crypto.getRandomValues(new Uint8Array(2048)))).findings.find((f) => f.rule === "pack-not-godot")!
    const [one, two] = [await notAPack(), await notAPack()]
    expect(one.line).toBeNull()
    expect(one.fingerprint).toBe(two.fingerprint)
  })
})
