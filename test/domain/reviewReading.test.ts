import fc from "fast-check"
import { describe, expect, test } from "vitest"
import { decodeCursor, encodeCursor } from "../../domain/review/cursor.ts"
import { changedEntries, compareCapabilities, compareFindings } from "../../domain/review/DiffReleases.ts"
import { pathProblem } from "../../domain/review/PackFile.ts"
import { findingsOf } from "../../domain/review/ReadPack.ts"
import type { Finding } from "../../domain/scan/Finding.ts"

const finding = (overrides: Partial<Finding>): Finding => ({
  file: "res://main.gd", line: 5, column: 2, rule: "banned-api", pattern: "OS.execute", message: "OS.execute runs programs", severity: "error", ...overrides,
})

describe("cursors", () => {
  test("every key round-trips, and a cursor has exactly one spelling", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (key) => {
      expect(decodeCursor(encodeCursor(key))).toBe(key === "" ? null : key)
    }))
    fc.assert(fc.property(fc.string(), (junk) => {
      const key = decodeCursor(junk)
      if (key !== null) expect(encodeCursor(key)).toBe(junk)
    }))
  })
})

describe("paths a reviewer may ask for", () => {
  test("creator paths and built-in scripts pass; climbing, empty segments and control characters do not", () => {
    for (const ok of ["res://main.gd", "res://a/b c/ゲーム.tscn", "res://main.tscn::GDScript_k3x9a", "res://main.tscn::1"]) expect(pathProblem(ok), ok).toBeNull()
    for (const bad of ["", "main.gd", "res://", "res://../x", "res://a/../b", "res://a//b", "res://./a", "res://a\\b", "res://a\u0007", "res://a\u0085", "res://x.tscn::", "res://x.tscn::a-b"]) {
      expect(pathProblem(bad), JSON.stringify(bad)).toEqual(expect.any(String))
    }
  })
})

describe("comparing two releases", () => {
  test("findings by fingerprint, else by rule, file, pattern and message; repeats are counted", () => {
    const moved = finding({ line: 9, fingerprint: "fp-1" })
    const result = compareFindings(
      [moved, finding({ fingerprint: "fp-2" }), finding({ line: 40 }), finding({ rule: "native-code" })],
      [finding({ line: 5, fingerprint: "fp-1" }), finding({ line: 3 }), finding({ fingerprint: "fp-3" })],
    )
    expect(result.carried.map((f) => f.line)).toEqual([9, 40])
    expect(result.new.map((f) => f.fingerprint ?? f.rule)).toEqual(["fp-2", "native-code"])
    expect(result.fixed.map((f) => f.fingerprint)).toEqual(["fp-3"])
  })

  test("capabilities added and removed; entries added, modified and removed by content", () => {
    expect(compareCapabilities(["network", "file-writes"], ["network", "process"])).toEqual({ added: ["file-writes"], removed: ["process"] })
    const entry = (path: string, sha256: string) => ({ path, sizeBytes: 1, kind: "text" as const, sha256 })
    expect(changedEntries([entry("res://a", "1"), entry("res://b", "2"), entry("res://c", "3")], [entry("res://b", "2"), entry("res://c", "9"), entry("res://d", "4")])
      .map((c) => `${c.change} ${c.path}`)).toEqual(["added res://a", "modified res://c", "removed res://d"])
  })

  test("a file's findings: its own lines, or a built-in script's", () => {
    const inScene = finding({ file: "res://s.tscn", embeddedIn: { resource: "res://s.tscn", subResource: "GDScript_1" } })
    const all = [finding({}), inScene, finding({ file: "res://s.tscn", line: 3 })]
    expect(findingsOf(all, "res://main.gd")).toEqual([all[0]])
    expect(findingsOf(all, "res://s.tscn")).toEqual([all[2]])
    expect(findingsOf(all, "res://s.tscn::GDScript_1")).toEqual([inScene])
  })
})
