// The manifest schema shared with the multipart path, and check 1 inside packs.
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { GameName } from "../../domain/game/GameName.ts"
import { decodeManifest } from "../../domain/manifest/decodeManifest.ts"
import { Manifest } from "../../domain/manifest/Manifest.ts"
import { isGameNameText, isReleaseVersion } from "../../domain/manifest/manifestRules.ts"
import { isValidVersion } from "../../domain/release/Version.ts"
import type { ScanExpectations } from "../../ports/PackScanner.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const VALID = { id: "my.game-1", name: "My Game", version: "1.2.0", engine_sdk: "2.0.1+build", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 8 }

describe("decodeManifest", () => {
  it("accepts a valid manifest and keeps only the known fields in the decoded value", () => {
    expect(decodeManifest({ ...VALID, extra: true })).toEqual({ _tag: "Valid", manifest: VALID })
    expect(decodeManifest({ ...VALID, entry_scene: "game/main.scn" })._tag).toBe("Valid")
  })

  it("names every offending field, in the documented order", () => {
    expect(decodeManifest({ ...VALID, version: "../1", name: " ", min_players: 0, entry_scene: "res://../x.tscn", id: undefined })).toEqual({
      _tag: "Invalid",
      fields: ["id", "name", "version", "entry_scene", "min_players"],
    })
    expect(decodeManifest({ ...VALID, min_players: 5, max_players: 2 })).toEqual({ _tag: "Invalid", fields: ["max_players"] })
    expect(decodeManifest({ ...VALID, max_players: 2.5 })).toEqual({ _tag: "Invalid", fields: ["max_players"] })
    expect(decodeManifest("text")).toMatchObject({ fields: ["id", "name", "version", "engine_sdk", "entry_scene", "min_players", "max_players"] })
  })

  it("version follows the release version rule (it ends up in URLs)", () => {
    for (const bad of ["", "a".repeat(33), "-1", "1..2", "1/2", "v 1"]) expect(decodeManifest({ ...VALID, version: bad })).toMatchObject({ fields: ["version"] })
  })
})

describe("decodeManifest agrees with the schemas it restates without effect", () => {
  const versionish = fc.string({ unit: fc.constantFrom(..."aZ09._-/ é"), maxLength: 40 })
  it("the release version rule (domain/release/Version.ts)", () => {
    fc.assert(fc.property(versionish, (s) => {
        expect(isReleaseVersion(s)).toBe(isValidVersion(s))
      }), { numRuns: 2000 })
  })

  it("the game name rule (domain/game/GameName.ts)", () => {
    const names = fc.oneof(fc.string({ maxLength: 90 }), fc.string({ unit: "grapheme", maxLength: 90 }), fc.constantFrom("", " ", "\t\n", "😀".repeat(80), "😀".repeat(81)))
    fc.assert(fc.property(names, (s) => {
        expect(isGameNameText(s)).toBe(Result.isSuccess(Schema.decodeUnknownResult(GameName)(s)))
      }), { numRuns: 2000 })
  })

  it("whole manifests: valid for one exactly when valid for the other", () => {
    const value = fc.oneof(fc.string({ maxLength: 70 }), fc.integer({ min: -2, max: 300 }), fc.double(), fc.constant(null), fc.constant(undefined))
    const manifests = fc.record({
      id: fc.oneof(value, fc.constantFrom("g", "my.game", "..x", "x".repeat(65))),
      name: fc.oneof(value, fc.constantFrom("Game", " ")),
      version: fc.oneof(value, fc.constantFrom("1.0", "1..0", "v1")),
      engine_sdk: fc.oneof(value, fc.constantFrom("1.0", "+1")),
      entry_scene: fc.oneof(value, fc.constantFrom("res://m.tscn", "m.scn", "res://a/../m.tscn")),
      min_players: fc.oneof(value, fc.integer({ min: 1, max: 8 })),
      max_players: fc.oneof(value, fc.integer({ min: 1, max: 8 })),
    })
    fc.assert(
      fc.property(manifests, (m) => {
        expect(decodeManifest(m)._tag === "Valid").toBe(Result.isSuccess(Schema.decodeUnknownResult(Manifest)(m)))
      }),
      { numRuns: 3000 },
    )
  })
})

describe("manifest check inside a pack", () => {
  const packWith = (manifestText: string | null) =>
    writePack({ format: 3, entries: manifestText === null ? [{ path: "icon.png", data: utf8("png") }] : [{ path: "manifest.json", data: utf8(manifestText) }] })
  const rules = async (text: string | null, expectations: ScanExpectations = { path: "multipart" }) =>
    (await scanBytes(packWith(text), expectations)).findings.filter((f) => f.rule.startsWith("manifest")).map((f) => `${f.file}:${f.line} ${f.rule} ${f.pattern}`)

  it("missing, invalid JSON, invalid fields at their lines", async () => {
    expect(await rules(null)).toEqual(["res://manifest.json:null manifest-missing manifest.json"])
    expect(await rules('{\n  "id": "x",\n  oops\n}')).toEqual(["res://manifest.json:3 manifest-invalid-json manifest.json"])
    expect(await rules(JSON.stringify({ ...VALID, version: "1..0", max_players: 0 }, null, 2))).toEqual([
      "res://manifest.json:4 manifest-invalid-field version",
      "res://manifest.json:8 manifest-invalid-field max_players",
    ])
    expect(await rules(JSON.stringify({ ...VALID, engine_sdk: undefined }))).toEqual(["res://manifest.json:null manifest-invalid-field engine_sdk"])
  })

  it("a trailing NUL and a BOM (as Godot 4 writes some text files) do not make valid JSON invalid", async () => {
    const report = await scanBytes(packWith(`\ufeff${JSON.stringify({ ...VALID, entry_scene: "res://none.tscn" })}\0`))
    expect(report.findings.map((f) => f.rule)).toEqual(["entry-scene-missing"])
    expect(report.manifest?.id).toBe("my.game-1")
  })

  it("current: equal to the submitted manifest as parsed JSON (key order and spacing do not matter)", async () => {
    const { max_players, ...rest } = VALID
    const text = JSON.stringify({ max_players, ...rest }, null, 4)
    expect(await rules(text, { path: "multipart", submittedManifest: VALID })).toEqual([])
    expect(await rules(text, { path: "multipart", submittedManifest: { ...VALID, name: "Other" } })).toEqual(["res://manifest.json:4 manifest-not-current submitted manifest"])
  })
})
