// domain/text: what names, reasons and identifiers may contain, the messages that name field and code point, and the
// manifest rules built on the same checks. Pure: runs on Node and on Deno.
import { Effect, Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, test } from "vitest"
import { decodeInput } from "../../domain/decode.ts"
import { RegisterGameBody } from "../../domain/game/CreateGame.ts"
import { GameName } from "../../domain/game/GameName.ts"
import { decodeManifest } from "../../domain/manifest/decodeManifest.ts"
import { isGameNameText, isValidEntryScenePath, manifestCharacterProblems } from "../../domain/manifest/manifestRules.ts"
import { RejectBody } from "../../domain/review/Review.ts"
import { ScanReport } from "../../domain/scan/ScanReport.ts"
import { forbiddenCharacters } from "../../domain/text/textRules.ts"
import { IdentifierText, NameText, ReasonText } from "../../domain/text/UserText.ts"
import { label, validIdentifier, validName, validReason, withForbidden } from "../support/userTextArbitraries.ts"

/** What decodeInput answers: the decoded value, or the problems of the 400 `invalid_request`. */
const decode = <S extends Schema.Decoder<unknown>>(schema: S, input: unknown) =>
  Effect.runSync(Effect.result(decodeInput(schema, input)))
const problemsOf = <S extends Schema.Decoder<unknown>>(schema: S, input: unknown): ReadonlyArray<string> => {
  const result = decode(schema, input)
  if (Result.isSuccess(result)) throw new Error(`accepted: ${JSON.stringify(input)}`)
  return result.failure.problems
}
const valueOf = <S extends Schema.Decoder<unknown>>(schema: S, input: unknown): S["Type"] => {
  const result = decode(schema, input)
  if (Result.isFailure(result)) throw new Error(`refused ${JSON.stringify(input)}: ${result.failure.problems.join("; ")}`)
  return result.success
}

const NameBody = Schema.Struct({ name: NameText })
const ReasonBody = Schema.Struct({ reason: ReasonText })
const OwnerBody = Schema.Struct({ ownerId: IdentifierText })

/** Every inserted code point is named, with its field, and nothing else is called forbidden. */
const expectNamed = (problems: ReadonlyArray<string>, field: string, forbidden: ReadonlyArray<number>) => {
  for (const cp of forbidden) expect(problems).toContainEqual(expect.stringMatching(new RegExp(`^${field}: contains ${label(cp).replace("+", "\\+")} \\(.+\\); remove it$`)))
  const named = problems.filter((p) => p.startsWith(`${field}: contains U+`)).map((p) => p.slice(`${field}: contains `.length).split(" ")[0])
  expect(new Set(named)).toEqual(new Set(forbidden.map(label)))
}

describe("forbiddenCharacters", () => {
  test("names each kind in words, once per code point, in order of appearance", () => {
    expect(forbiddenCharacters("a\u202Eb\u0007c\u202E\uD800\u2066\u0085\u2028", "single")).toEqual([
      { codePoint: 0x202e, what: "a bidirectional control" },
      { codePoint: 0x07, what: "a control character" },
      { codePoint: 0xd800, what: "a lone surrogate" },
      { codePoint: 0x2066, what: "a bidirectional control" },
      { codePoint: 0x85, what: "a control character" },
      { codePoint: 0x2028, what: "a line separator" },
    ])
  })

  test("LF and TAB are allowed only in multi-line text; CR and DEL never", () => {
    expect(forbiddenCharacters("a\nb\tc", "multi")).toEqual([])
    expect(forbiddenCharacters("a\nb\tc", "single").map((f) => f.codePoint)).toEqual([0x0a, 0x09])
    expect(forbiddenCharacters("a\r\nb\u007F", "multi").map((f) => f.codePoint)).toEqual([0x0d, 0x7f])
  })

  test("surrogate pairs are one code point and allowed; either half alone is not", () => {
    expect(forbiddenCharacters("😀\uD83D\uDE00", "single")).toEqual([])
    expect(forbiddenCharacters("\uDE00😀", "single").map((f) => f.codePoint)).toEqual([0xde00])
    expect(forbiddenCharacters("😀\uD83D", "single").map((f) => f.codePoint)).toEqual([0xd83d])
    expect(forbiddenCharacters("\uD83D\uD83D\uDE00", "single").map((f) => f.codePoint)).toEqual([0xd83d])
  })

  test("finds exactly the inserted code points, wherever they are", () => {
    fc.assert(fc.property(withForbidden(validName, "single"), ({ text, forbidden }) => {
      expect(new Set(forbiddenCharacters(text, "single").map((f) => f.codePoint))).toEqual(new Set(forbidden))
    }), { numRuns: 1000 })
    fc.assert(fc.property(validReason, (text) => {
      expect(forbiddenCharacters(text, "multi")).toEqual([])
    }), { numRuns: 500 })
  })
})

describe("NameText (game names)", () => {
  test("a forbidden code point anywhere: refused, naming the field and each code point", () => {
    fc.assert(fc.property(withForbidden(validName, "single"), ({ text, forbidden }) => {
      expectNamed(problemsOf(NameBody, { name: text }), "name", forbidden)
    }), { numRuns: 500 })
    expect(problemsOf(NameBody, { name: "Safe\u202Egame" })).toEqual(["name: contains U+202E (a bidirectional control); remove it"])
  })

  test("valid names decode to their NFC form", () => {
    fc.assert(fc.property(validName, (name) => {
      const decoded = valueOf(NameBody, { name }).name
      expect(decoded).toBe(name.normalize("NFC"))
      expect(decoded.normalize("NFC")).toBe(decoded)
    }), { numRuns: 500 })
    expect(valueOf(NameBody, { name: "Cafe\u0301 \u212B" }).name).toBe("Café Å")
  })

  test("1-80 code points, counted in the NFC form that is stored; blank and non-strings refused", () => {
    expect(valueOf(NameBody, { name: "😀".repeat(80) }).name).toBe("😀".repeat(80))
    expect(problemsOf(NameBody, { name: "😀".repeat(81) })).toEqual([expect.stringMatching(/^name: Expected 1-80 characters .*got 81$/)])
    // 160 code points as sent, 80 once composed.
    expect(valueOf(NameBody, { name: "e\u0301".repeat(80) }).name).toBe("é".repeat(80))
    // U+0958 has a two-code-point canonical form: 41 of them are 82 code points in NFC.
    expect(problemsOf(NameBody, { name: "\u0958".repeat(41) })).toEqual([expect.stringContaining("got 82")])
    for (const name of ["", " ", "\u00A0 ", 42, null]) expect(problemsOf(NameBody, { name })[0]).toMatch(/^name: /)
  })

  test("GameName is this schema, and the manifest's effect-free name rule agrees with it on every input", () => {
    expect(GameName).toBe(NameText)
    const anyName = fc.oneof(validName, withForbidden(validName, "single").map((w) => w.text), fc.string({ maxLength: 90 }), fc.string({ unit: "binary", maxLength: 90 }))
    fc.assert(fc.property(anyName, (s) => {
      expect(isGameNameText(s)).toBe(Result.isSuccess(Schema.decodeUnknownResult(GameName)(s)))
    }), { numRuns: 1000 })
  })
})

describe("ReasonText (rejection reasons)", () => {
  test("LF and TAB pass; every other forbidden code point is named", () => {
    fc.assert(fc.property(withForbidden(validReason, "multi"), ({ text, forbidden }) => {
      expectNamed(problemsOf(RejectBody, { reason: text }), "reason", forbidden)
    }), { numRuns: 500 })
    expect(problemsOf(ReasonBody, { reason: "Line one\r\nLine two" })).toEqual(["reason: contains U+000D (a control character); remove it"])
  })

  test("valid reasons (several lines, emoji, combining marks) decode to NFC", () => {
    fc.assert(fc.property(validReason, (reason) => {
      expect(valueOf(RejectBody, { reason }).reason).toBe(reason.normalize("NFC"))
    }), { numRuns: 500 })
    expect(valueOf(ReasonBody, { reason: "Fix:\n\t- re\u0301sume\u0301 😀" }).reason).toBe("Fix:\n\t- résumé 😀")
  })

  test("at most 2000 code points; not blank", () => {
    expect(valueOf(ReasonBody, { reason: "😀".repeat(2000) }).reason).toHaveLength(4000)
    expect(problemsOf(ReasonBody, { reason: "x".repeat(2001) })).toEqual([expect.stringMatching(/^reason: Expected 1-2000 characters .*got 2001$/)])
    expect(problemsOf(ReasonBody, { reason: "\n\t \n" })).toEqual(["reason: Expected a reason the creator can act on"])
  })
})

describe("IdentifierText (owner ids)", () => {
  test("no control, bidirectional or surrogate code point, not even LF", () => {
    fc.assert(fc.property(withForbidden(validIdentifier, "single"), ({ text, forbidden }) => {
      expectNamed(problemsOf(RegisterGameBody, { name: "Game", kind: "web", ownerId: text }), "ownerId", forbidden)
    }), { numRuns: 500 })
  })

  test("kept verbatim: not normalised (it must equal a token's sub), 1-255 code units", () => {
    fc.assert(fc.property(validIdentifier, (id) => {
      expect(valueOf(OwnerBody, { ownerId: id }).ownerId).toBe(id)
    }), { numRuns: 300 })
    expect(valueOf(OwnerBody, { ownerId: "e\u0301" }).ownerId).toBe("e\u0301")
    expect(valueOf(OwnerBody, { ownerId: "x".repeat(255) }).ownerId).toHaveLength(255)
    expect(problemsOf(OwnerBody, { ownerId: "x".repeat(256) })).toEqual([expect.stringMatching(/^ownerId: /)])
    expect(problemsOf(OwnerBody, { ownerId: "" })).toEqual([expect.stringMatching(/^ownerId: /)])
  })
})

describe("slugs name the code point too", () => {
  test("a forbidden code point in a slug is named, with the pattern problem", () => {
    const problems = problemsOf(RegisterGameBody, { name: "Game", kind: "web", ownerId: "o", slug: "my-\u202Egame" })
    expect(problems).toContain("slug: contains U+202E (a bidirectional control); remove it")
    expect(problems.every((p) => p.startsWith("slug: "))).toBe(true)
  })
})

describe("manifest rules use the same checks", () => {
  const VALID = { id: "my.game", name: "My Game", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://main.tscn", min_players: 1, max_players: 2 }

  test("a name with a forbidden code point is an invalid name field, and the problem names the code point", () => {
    fc.assert(fc.property(withForbidden(validName, "single"), ({ text, forbidden }) => {
      const manifest = { ...VALID, name: text }
      expect(decodeManifest(manifest)).toEqual({ _tag: "Invalid", fields: ["name"] })
      const problems = manifestCharacterProblems(manifest)
      expect(problems).toHaveLength(forbidden.length)
      for (const cp of forbidden) expect(problems.some((p) => p.startsWith(`name: contains ${label(cp)} (`))).toBe(true)
    }), { numRuns: 300 })
  })

  test("a valid name is kept in NFC; ids and entry scenes with forbidden code points are invalid", () => {
    expect(decodeManifest({ ...VALID, name: "Cafe\u0301" })).toEqual({ _tag: "Valid", manifest: { ...VALID, name: "Café" } })
    expect(decodeManifest({ ...VALID, id: "my\u202Egame" })).toEqual({ _tag: "Invalid", fields: ["id"] })
    expect(isValidEntryScenePath("res://ma\u202Ein.tscn")).toBe(false)
    expect(isValidEntryScenePath("res://menú/main.tscn")).toBe(true)
    expect(manifestCharacterProblems({ ...VALID, id: "a\u0000", entry_scene: "res://\u2066x.tscn" })).toEqual([
      "id: contains U+0000 (a control character); remove it",
      "entry_scene: contains U+2066 (a bidirectional control); remove it",
    ])
    expect(manifestCharacterProblems("not an object")).toEqual([])
  })
})

describe("scan reports recorded before these rules", () => {
  test("still load: a recorded manifest's name and entry scene are not checked again on the way out", () => {
    const summary = { countsByRule: {}, errors: 0, warnings: 0, packFormat: 1, engineVersion: null, entryCount: 0, packBytes: 0, bytesRead: 0 }
    const manifest = { id: "old", name: "Old\u202Egame", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://\u0007.tscn", min_players: 1, max_players: 2 }
    const report = { ok: true, findings: [], summary, files: [], manifest, scannerVersion: "1" }
    expect(Schema.decodeUnknownSync(ScanReport)(report).manifest).toEqual(manifest)
    expect(() => Schema.decodeUnknownSync(ScanReport)({ ...report, manifest: { ...manifest, version: "../x" } })).toThrow()
  })
})
