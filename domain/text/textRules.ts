// What text from users may contain (names, reasons, identifiers), as plain functions without effect: the manifest
// rules (and through them the scanner's standalone `check` process) use these, and the schemas in UserText.ts are
// built from them, so every path refuses the same characters.

export const NAME_MAX_CODE_POINTS = 80
export const REASON_MAX_CODE_POINTS = 2000
/** Owner ids and token subjects: 1-255 UTF-16 code units, as the records' columns hold them. */
export const IDENTIFIER_MAX_LENGTH = 255

/** Names and identifiers are one line; reasons may also hold LF and TAB. */
export type LineMode = "single" | "multi"

export interface ForbiddenCharacter {
  readonly codePoint: number
  /** What it is, in words: "a control character", "a bidirectional control", … */
  readonly what: string
}

/** How many distinct forbidden characters one value reports at most (a body of 64 KiB could hold thousands). */
const MAX_REPORTED = 8

const LF = 0x0a
const TAB = 0x09

/** Why a code point may not appear, or null when it may. */
const forbiddenAs = (codePoint: number, lines: LineMode): string | null => {
  if (codePoint <= 0x1f || (codePoint >= 0x7f && codePoint <= 0x9f)) {
    return lines === "multi" && (codePoint === LF || codePoint === TAB) ? null : "a control character"
  }
  // Embeddings and overrides (LRE, RLE, PDF, LRO, RLO) and isolates (LRI, RLI, FSI, PDI): they reorder what is shown.
  if ((codePoint >= 0x202a && codePoint <= 0x202e) || (codePoint >= 0x2066 && codePoint <= 0x2069)) return "a bidirectional control"
  // LINE SEPARATOR and PARAGRAPH SEPARATOR break a line like LF but are not LF: refused everywhere, LF is the line break.
  if (codePoint === 0x2028 || codePoint === 0x2029) return "a line separator"
  return null
}

/** `U+202E`: how messages write a code point. */
export const codePointLabel = (codePoint: number): string => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`

/**
 * The characters `text` may not contain, each once, in the order they first appear (at most a few). Lone surrogates
 * (a UTF-16 half without its other half) count as forbidden: a database would store them as U+FFFD.
 */
export const forbiddenCharacters = (text: string, lines: LineMode): ReadonlyArray<ForbiddenCharacter> => {
  const found: Array<ForbiddenCharacter> = []
  const seen = new Set<number>()
  const add = (codePoint: number, what: string) => {
    if (seen.has(codePoint)) return
    seen.add(codePoint)
    found.push({ codePoint, what })
  }
  for (let i = 0; i < text.length && found.length < MAX_REPORTED; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0
      if (next >= 0xdc00 && next <= 0xdfff) i++ // a pair: one astral code point, never forbidden
      else add(unit, "a lone surrogate")
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      add(unit, "a lone surrogate")
    } else {
      const what = forbiddenAs(unit, lines)
      if (what !== null) add(unit, what)
    }
  }
  return found
}

/** `contains U+202E (a bidirectional control); remove it` — the caller puts the field name in front. */
export const describeForbidden = (character: ForbiddenCharacter): string =>
  `contains ${codePointLabel(character.codePoint)} (${character.what}); remove it`

export const hasForbiddenCharacters = (text: string, lines: LineMode): boolean => forbiddenCharacters(text, lines).length > 0

/** Blank: empty or only whitespace. */
export const isBlank = (text: string): boolean => text.trim().length === 0

/** Length in Unicode code points of the NFC form, which is what is stored (an emoji counts as one). */
export const nfcCodePointCount = (text: string): number => [...text.normalize("NFC")].length

/** A name: one line, not blank, 1-80 code points in NFC, no forbidden character. */
export const isNameText = (text: string): boolean =>
  !isBlank(text) && nfcCodePointCount(text) <= NAME_MAX_CODE_POINTS && !hasForbiddenCharacters(text, "single")

/** A reason: LF and TAB allowed, not blank, at most 2000 code points in NFC, no other forbidden character. */
export const isReasonText = (text: string): boolean =>
  !isBlank(text) && nfcCodePointCount(text) <= REASON_MAX_CODE_POINTS && !hasForbiddenCharacters(text, "multi")

/** An identifier (owner ids, token subjects): 1-255 code units, no forbidden character; kept verbatim, never normalised. */
export const isIdentifierText = (text: string): boolean =>
  text.length >= 1 && text.length <= IDENTIFIER_MAX_LENGTH && !hasForbiddenCharacters(text, "single")
