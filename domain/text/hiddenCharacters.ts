// Characters that change what a reader sees without showing themselves: bidirectional controls reorder the text
// around them ("Trojan Source": code that reads as a comment but runs), zero-width and format characters hide inside
// names and strings. Views of creators' code (the review pages, the CLI's diffs) show each one as a visible mark with
// its code point instead of letting it act.

const NAMES: Readonly<Record<number, string>> = {
  0x00ad: "SOFT HYPHEN",
  0x061c: "ARABIC LETTER MARK",
  0x180e: "MONGOLIAN VOWEL SEPARATOR",
  0x200b: "ZERO WIDTH SPACE",
  0x200c: "ZERO WIDTH NON-JOINER",
  0x200d: "ZERO WIDTH JOINER",
  0x200e: "LEFT-TO-RIGHT MARK",
  0x200f: "RIGHT-TO-LEFT MARK",
  0x2028: "LINE SEPARATOR",
  0x2029: "PARAGRAPH SEPARATOR",
  0x202a: "LEFT-TO-RIGHT EMBEDDING",
  0x202b: "RIGHT-TO-LEFT EMBEDDING",
  0x202c: "POP DIRECTIONAL FORMATTING",
  0x202d: "LEFT-TO-RIGHT OVERRIDE",
  0x202e: "RIGHT-TO-LEFT OVERRIDE",
  0x2060: "WORD JOINER",
  0x2061: "FUNCTION APPLICATION",
  0x2062: "INVISIBLE TIMES",
  0x2063: "INVISIBLE SEPARATOR",
  0x2064: "INVISIBLE PLUS",
  0x2066: "LEFT-TO-RIGHT ISOLATE",
  0x2067: "RIGHT-TO-LEFT ISOLATE",
  0x2068: "FIRST STRONG ISOLATE",
  0x2069: "POP DIRECTIONAL ISOLATE",
  0xfeff: "ZERO WIDTH NO-BREAK SPACE",
}

/** Control characters other than TAB, LF and CR (they show as nothing, or move the cursor in a terminal). */
const isControl = (codePoint: number): boolean =>
  (codePoint <= 0x1f && codePoint !== 0x09 && codePoint !== 0x0a && codePoint !== 0x0d) || (codePoint >= 0x7f && codePoint <= 0x9f)

/** Bidirectional controls: embeddings, overrides and isolates, and the marks that steer them. */
export const isBidiControl = (codePoint: number): boolean =>
  (codePoint >= 0x202a && codePoint <= 0x202e) || (codePoint >= 0x2066 && codePoint <= 0x2069) || codePoint === 0x200e || codePoint === 0x200f ||
  codePoint === 0x061c

/**
 * Noncharacters of the Basic Multilingual Plane (U+FDD0-U+FDEF, U+FFFE, U+FFFF): no text uses them, they
 * show as nothing or a box, and Godot 3's script tokenizer ends a string at U+FFFF (its completion cursor).
 */
const isNoncharacter = (codePoint: number): boolean => (codePoint >= 0xfdd0 && codePoint <= 0xfdef) || codePoint === 0xfffe || codePoint === 0xffff

/** Whether `codePoint` hides itself or rearranges its neighbours when shown as text. */
export const isHiddenCharacter = (codePoint: number): boolean => NAMES[codePoint] !== undefined || isControl(codePoint) || isNoncharacter(codePoint)

/** `RIGHT-TO-LEFT OVERRIDE`, `NONCHARACTER`, or `CONTROL CHARACTER` for controls. */
export const hiddenCharacterName = (codePoint: number): string => NAMES[codePoint] ?? (isNoncharacter(codePoint) ? "NONCHARACTER" : "CONTROL CHARACTER")

export type TextPiece = { readonly text: string } | { readonly hidden: number }

const HIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFDD0-\uFDEF\uFEFF\uFFFE\uFFFF]/u

/** `text` cut into visible runs and hidden characters, in order (one piece per hidden character). */
export const splitHidden = (text: string): ReadonlyArray<TextPiece> => {
  if (!HIDDEN.test(text)) return [{ text }]
  const pieces: Array<TextPiece> = []
  let run = ""
  for (const char of text) {
    const codePoint = char.codePointAt(0)!
    if (isHiddenCharacter(codePoint)) {
      if (run !== "") pieces.push({ text: run })
      run = ""
      pieces.push({ hidden: codePoint })
    } else run += char
  }
  if (run !== "") pieces.push({ text: run })
  return pieces
}
