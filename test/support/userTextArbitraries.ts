// Generators of text from users: valid names, reasons and identifiers (emoji, combining marks, right-to-left scripts,
// text that NFC changes), and the same with forbidden code points inserted at random code-point positions.
// Deliberately independent of domain/text: the expected code points come from what was inserted.
import fc from "fast-check"

const between = (min: number, max: number) => fc.integer({ min, max })

const isHighSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdbff
const isLowSurrogate = (cp: number) => cp >= 0xdc00 && cp <= 0xdfff

/** C0 and C1 controls (DEL too), bidirectional embeddings/overrides/isolates, line separators, lone surrogates. */
export const forbiddenCodePoint = (lines: "single" | "multi") =>
  fc.oneof(
    between(0x00, 0x1f).filter((cp) => lines === "single" || (cp !== 0x0a && cp !== 0x09)),
    between(0x7f, 0x9f),
    between(0x202a, 0x202e),
    between(0x2066, 0x2069),
    fc.constantFrom(0x2028, 0x2029),
    between(0xd800, 0xdbff),
    between(0xdc00, 0xdfff),
  )

/** `U+202E`, written independently of the code under test. */
export const label = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`

/** Pieces of real-world text; several are not in NFC (decomposed accents, the Ångström and Ohm signs, U+0958). */
const PIECES = [
  "é", "e\u0301", "A\u030A", "\u212B", "Å", "ñ", "n\u0303", "ß", "Ω", "\u2126", "\u0958", "a\u0323\u0307", "\u0301",
  "ﬁ", "😀", "👩‍💻", "🇫🇷", "👍🏽", "日本語", "עברית", "العربية", "Ünïcödé", "\u00A0", "Ø",
]
const asciiWord = fc.string({ unit: fc.constantFrom(..."abcxyzABCXYZ0189 -_:!?'&.()"), minLength: 1, maxLength: 8 })
const piece = fc.oneof({ arbitrary: asciiWord, weight: 3 }, { arbitrary: fc.constantFrom(...PIECES), weight: 2 })

const nfcLength = (s: string) => [...s.normalize("NFC")].length
const notBlank = (s: string) => s.trim().length > 0

/** A valid game name: one line, not blank, at most 80 code points once in NFC. */
export const validName = fc.array(piece, { minLength: 1, maxLength: 14 }).map((p) => p.join("")).filter((s) => notBlank(s) && nfcLength(s) <= 80)

/** A valid reason: several lines (LF, TAB), not blank, at most 2000 code points once in NFC. */
export const validReason = fc
  .array(fc.oneof({ arbitrary: piece, weight: 4 }, { arbitrary: fc.constantFrom("\n", "\t", "\n\n", " \t"), weight: 1 }), { minLength: 1, maxLength: 40 })
  .map((p) => p.join(""))
  .filter((s) => notBlank(s) && nfcLength(s) <= 2000)

/** Owner ids as identity providers write them; kept verbatim (the decomposed "e\u0301" too). */
export const validIdentifier = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._@|:-]{0,40}$/),
  fc.constantFrom("auth0|5f1c0ffee", "user@example.com", "github:1234567", "ünïcödé", "e\u0301", "用户-7", "😀 user"),
)

export interface WithForbidden {
  readonly text: string
  /** The distinct forbidden code points inserted, in no particular order. */
  readonly forbidden: ReadonlyArray<number>
}

/**
 * `valid` with 1-3 forbidden code points inserted between its code points. A high and a low surrogate are never both
 * inserted: side by side they would form a valid pair.
 */
export const withForbidden = (valid: fc.Arbitrary<string>, lines: "single" | "multi"): fc.Arbitrary<WithForbidden> =>
  fc
    .tuple(valid, fc.array(fc.tuple(forbiddenCodePoint(lines), fc.nat()), { minLength: 1, maxLength: 3 }))
    .filter(([, inserts]) => !(inserts.some(([cp]) => isHighSurrogate(cp)) && inserts.some(([cp]) => isLowSurrogate(cp))))
    .map(([text, inserts]) => {
      const codePoints = [...text]
      for (const [cp, at] of inserts) codePoints.splice(at % (codePoints.length + 1), 0, String.fromCharCode(cp))
      return { text: codePoints.join(""), forbidden: [...new Set(inserts.map(([cp]) => cp))] }
    })
