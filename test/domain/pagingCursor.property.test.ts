// The paging cursor codec (domain/paging/Cursor.ts) against the codec it replaced, kept here as the reference: the same
// cursor text for every key, and the same answer (a key, or not a cursor) for any text a client may send. A cursor that
// is not one is 400 invalid_request through readPageRequest.
import { Effect, Exit } from "effect"
import fc from "fast-check"
import { describe, expect, test } from "vitest"
import { base64UrlToBytes, bytesToBase64Url } from "../../domain/paging/base64url.ts"
import { decodeCursor, encodeCursor, idPart, type KeysetOrder } from "../../domain/paging/Cursor.ts"
import { readPageRequest } from "../../domain/paging/Page.ts"

/** The codec before: btoa/atob over a binary string, a new TextDecoder per call. */
const reference: { encode(text: string): string; bytes(encoded: string): Uint8Array | null; decode(encoded: string): string | null } = {
  encode: (text: string): string => {
    let binary = ""
    for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte)
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
  },
  bytes: (encoded: string): Uint8Array | null => {
    if (!/^[A-Za-z0-9_-]*$/.test(encoded)) return null
    try {
      return Uint8Array.from(atob(encoded.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0))
    } catch {
      return null
    }
  },
  decode: (encoded: string): string | null => {
    const bytes = reference.bytes(encoded)
    if (bytes === null) return null
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
    } catch {
      return null
    }
  },
}

/** A list whose key is any parts at all (so every JSON array of strings tagged with its name decodes). */
const ANY_PARTS: KeysetOrder<ReadonlyArray<string>> = { list: "test-list", toParts: (key) => key, fromParts: (parts) => parts }
const IDS: KeysetOrder<string> = { list: "ids", toParts: (id) => [id], fromParts: ([id, ...rest]) => (rest.length === 0 ? idPart(id) : null) }

const base64UrlText = fc.string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"), maxLength: 64 })

describe("paging cursors", () => {
  test("the text is byte for byte what the codec before wrote, and it decodes back to the key", () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: "binary" }), { maxLength: 6 }), (parts) => {
      const cursor = encodeCursor(ANY_PARTS, parts)
      expect(cursor).toBe(reference.encode(JSON.stringify([ANY_PARTS.list, ...parts])))
      if (cursor.length <= 1024) expect(decodeCursor(ANY_PARTS, cursor)).toEqual(parts)
    }), { numRuns: 500 })
  })

  test("any text decodes as it did before: the same bytes, the same key or the same refusal", () => {
    const sameAsBefore = (text: string) => {
      expect(base64UrlToBytes(text)).toEqual(reference.bytes(text))
      const before = reference.decode(text)
      const parsedBefore = (() => {
        try {
          return before === null ? null : JSON.parse(before)
        } catch {
          return null
        }
      })()
      const expected = Array.isArray(parsedBefore) && parsedBefore[0] === ANY_PARTS.list && parsedBefore.every((p) => typeof p === "string") && text.length > 0
        ? parsedBefore.slice(1)
        : null
      expect(decodeCursor(ANY_PARTS, text)).toEqual(expected)
    }
    fc.assert(fc.property(base64UrlText, sameAsBefore), { numRuns: 2000 })
    fc.assert(fc.property(fc.string({ maxLength: 40 }), sameAsBefore), { numRuns: 1000 })
    // A real cursor with one character changed, cut short or lengthened.
    const cursor = encodeCursor(ANY_PARTS, ["2026-05-01T00:00:00.000Z", "gm_0123456789", "1.0.0"])
    fc.assert(fc.property(fc.nat(cursor.length - 1), fc.constantFrom(..."Aa09-_=+/ é"), (at, c) => {
      sameAsBefore(cursor.slice(0, at) + c + cursor.slice(at + 1))
      sameAsBefore(cursor.slice(0, at))
      sameAsBefore(cursor + c)
    }), { numRuns: 500 })
  })

  test("bytes round-trip through base64url at every length", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      expect(base64UrlToBytes(bytesToBase64Url(bytes))).toEqual(bytes)
    }))
  })

  test("a cursor that is not one of this list's is 400 invalid_request naming the cursor", () => {
    const good = encodeCursor(IDS, "gm_abc")
    expect(Effect.runSync(readPageRequest(IDS, { limit: null, cursor: good }))).toEqual({ limit: 50, after: "gm_abc" })
    fc.assert(fc.property(fc.oneof(base64UrlText, fc.string()), (junk) => {
      fc.pre(decodeCursor(IDS, junk) === null)
      const exit = Effect.runSyncExit(readPageRequest(IDS, { limit: null, cursor: junk }))
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) expect(JSON.stringify(exit.cause)).toContain("cursor: not a cursor of this list")
    }), { numRuns: 500 })
    for (const junk of ["", "x", "%%%", good.slice(0, -1) + "=", encodeCursor(ANY_PARTS, ["gm_abc"]), "a".repeat(1025)]) {
      expect(Exit.isFailure(Effect.runSyncExit(readPageRequest(IDS, { limit: null, cursor: junk }))), junk).toBe(true)
    }
  })
})
