// Text as the engine reads it: String::parse_utf8 of Godot 3 and 4 (godotUtf8.ts), the strict-UTF-8
// check that flags bytes no editor writes, and the Trojan Source check on a script's characters.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { decodeGodot3Utf8, decodeGodot4Utf8, StrictUtf8Watch, strictUtf8Problem } from "../../adapters/scanner/text/godotUtf8.ts"
import { trojanSourceHits } from "../../adapters/scanner/text/trojanSource.ts"

const bytes = (...parts: ReadonlyArray<string | ReadonlyArray<number>>): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)))

describe("UTF-8 as Godot 3 decodes it", () => {
  it("reads the overlong E0 80 A2 as a quote, the form its overlong check misses", () => {
    expect(decodeGodot3Utf8(bytes('var s = "x', [0xe0, 0x80, 0xa2], "; OS"))).toBe('var s = "x"; OS')
    // E0 80 80-8F is caught by the check (the third byte's top bits are zero), so is every two-byte overlong form.
    expect(decodeGodot3Utf8(bytes([0xe0, 0x80, 0x8f]))).toBeNull()
    expect(decodeGodot3Utf8(bytes([0xc0, 0xa2]))).toBeNull()
    expect(decodeGodot3Utf8(bytes([0xf0, 0x80, 0x80, 0xa2]))).toBeNull()
  })

  it("refuses a bad lead byte, a missing or bad continuation; skips a BOM; stops at NUL; keeps surrogates", () => {
    expect(decodeGodot3Utf8(bytes([0x80]))).toBeNull()
    expect(decodeGodot3Utf8(bytes([0xe2, 0x82]))).toBeNull()
    expect(decodeGodot3Utf8(bytes([0xe2, 0x41, 0x41]))).toBeNull()
    expect(decodeGodot3Utf8(bytes([0xef, 0xbb, 0xbf], "a"))).toBe("a")
    expect(decodeGodot3Utf8(bytes("ab", [0], "OS.execute()"))).toBe("ab")
    expect(decodeGodot3Utf8(bytes([0xed, 0xa0, 0x80]))).toBe("\ud800")
  })
})

describe("UTF-8 as Godot 4 decodes it", () => {
  it("never refuses: invalid bytes become U+FFFD and swallow the byte that broke the sequence; overlong forms decode", () => {
    expect(decodeGodot4Utf8(bytes([0xc0, 0xa2]))).toBe('"')
    expect(decodeGodot4Utf8(bytes([0xe0, 0x80, 0xa2]))).toBe('"')
    expect(decodeGodot4Utf8(bytes("a", [0xe2, 0x22], "b"))).toBe("a\ufffdb")
    expect(decodeGodot4Utf8(bytes([0x80], "x"))).toBe("\ufffdx")
    expect(decodeGodot4Utf8(bytes([0xed, 0xa0, 0x80]))).toBe("\ufffd")
    expect(decodeGodot4Utf8(bytes("a", [0xe2, 0x82]))).toBe("a ")
    expect(decodeGodot4Utf8(bytes("ab", [0], "cd"))).toBe("ab")
  })
})

describe("strict UTF-8", () => {
  it("both engines read valid UTF-8 without NUL exactly as the standard decoder does", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }).filter((s) => !s.includes("\0") && !s.startsWith("\ufeff")), (s) => {
        const b = new TextEncoder().encode(s)
        expect(strictUtf8Problem(b)).toBeNull()
        expect(decodeGodot3Utf8(b)).toBe(s)
        expect(decodeGodot4Utf8(b)).toBe(s)
      }),
    )
  })

  it("names the first offending byte, and finds it the same way across chunk boundaries", () => {
    expect(strictUtf8Problem(bytes("ab", [0xe0, 0x80, 0xa2])) ?? {}).toMatchObject({ offset: 2 })
    expect(strictUtf8Problem(bytes("ab", [0], "c"))?.what).toMatch(/NUL/)
    const text = bytes("line one\nline two é\nx = ", [0xe0, 0x80, 0xa2], "\n")
    for (const chunk of [1, 2, 3, 5, 64]) {
      const watch = new StrictUtf8Watch()
      for (let i = 0; i < text.length; i += chunk) watch.feed(text.subarray(i, i + chunk))
      watch.finish()
      expect(watch.problem, `chunks of ${chunk}`).toMatchObject({ line: 3, column: 5 })
    }
    const clean = new StrictUtf8Watch()
    for (const b of bytes("é€😀")) clean.feed(Uint8Array.of(b))
    clean.finish()
    expect(clean.problem).toBeNull()
  })
})

describe("Trojan Source", () => {
  const hits = (source: string) => trojanSourceHits(source, 4).map((h) => `${h.line}:${h.column} ${h.severity}`)

  it("a bidirectional control in code, or one left open in a string or a comment, is an error", () => {
    expect(hits("var a = 1\u202e\n")).toEqual(["1:10 error"])
    expect(hits('var who = "user\u202e \u2066# admin\u2069 \u2066"\n')).toEqual(["1:16 error"])
    expect(hits("# \u2067 closes nothing \u202c\nvar x = 1\n")).toEqual(["1:3 error"])
    expect(hits('var s = "\u2069"\n')).toEqual(["1:10 error"])
  })

  it("balanced controls and marks in a string or comment, and other hidden characters there, are warnings; a leading BOM is nothing", () => {
    expect(hits('var label = "\u2067\u0645\u0631\u062d\u0628\u0627\u2069"\n')).toEqual(["1:14 warning"])
    expect(hits("# \u202bRTL\u202c and \u200f\nvar x = 1\n")).toEqual(["1:3 warning"])
    expect(hits('var s = "zero\u200bwidth"\n')).toEqual(["1:14 warning"])
    expect(hits("\ufeffextends Node\n")).toEqual([])
    expect(hits("var o\u200bs = 1\n")).toEqual(["1:6 error"])
  })

  it("Godot 3 reads a multi-line string as two strings: an override opened on the first line is left open", () => {
    expect(trojanSourceHits('var s = "a\u202e\nb"\n', 3).map((h) => h.severity)).toEqual(["error"])
  })
})
