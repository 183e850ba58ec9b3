// "Trojan Source": bidirectional controls reorder how code is shown, so a reviewer reads one program and
// the engine runs another (a string that seems to end early, a call that seems to sit in a comment);
// other hidden characters (zero-width, controls) make different names look alike. Which characters
// count is domain/text/hiddenCharacters.ts. A bidirectional control in code, or one left open (or closed
// without being opened) within its string or comment, is an error; balanced ones inside a string or a
// comment (right-to-left text in a label) and other hidden characters there are warnings.
import { hiddenCharacterName, isBidiControl, isHiddenCharacter } from "../../../domain/text/hiddenCharacters.ts"
import { type Grammar, type LexicalSpan, tokenize } from "../gdscript/tokenizer.ts"

export interface HiddenTextHit {
  readonly line: number
  readonly column: number
  readonly severity: "error" | "warning"
  /** Why, for the finding's message. */
  readonly note: string
}

const OPENS_EMBEDDING = new Set([0x202a, 0x202b, 0x202d, 0x202e])
const OPENS_ISOLATE = new Set([0x2066, 0x2067, 0x2068])
const POP_EMBEDDING = 0x202c
const POP_ISOLATE = 0x2069

/** Characters that may hide or reorder text, outside the ASCII range the engine's tokens use (and the tab, line feed and carriage return). */
const CANDIDATE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFDD0-\uFDEF\uFEFF\uFFFE\uFFFF]/u

/** Whether the bidirectional controls of one string or comment open and close in order, and leave nothing open. */
const balanced = (controls: ReadonlyArray<number>): boolean => {
  const open: Array<"embedding" | "isolate"> = []
  for (const c of controls) {
    if (OPENS_EMBEDDING.has(c)) open.push("embedding")
    else if (OPENS_ISOLATE.has(c)) open.push("isolate")
    else if (c === POP_EMBEDDING) {
      if (open.at(-1) !== "embedding") return false
      open.pop()
    } else if (c === POP_ISOLATE) {
      if (open.at(-1) !== "isolate") return false
      open.pop()
    }
  }
  return open.length === 0
}

interface Found {
  readonly offset: number
  readonly codePoint: number
}

/** Hidden characters of a script, one hit per line (an error if any on the line is one). */
export const trojanSourceHits = (source: string, grammar: Grammar): ReadonlyArray<HiddenTextHit> => {
  if (!CANDIDATE.test(source)) return []
  const spans: Array<LexicalSpan> = []
  tokenize(source, grammar, spans)
  const found: Array<Found> = []
  for (let i = 0; i < source.length; i++) {
    const codePoint = source.charCodeAt(i)
    // A byte-order mark at the very start is not part of the text for the engine.
    if (i === 0 && codePoint === 0xfeff) continue
    if (isHiddenCharacter(codePoint)) found.push({ offset: i, codePoint })
  }
  const byLine = new Map<number, { column: number; severity: "error" | "warning"; names: Set<string>; where: Set<string> }>()
  const report = (f: Found, severity: "error" | "warning", where: string): void => {
    const { line, column } = positionOf(source, f.offset)
    const entry = byLine.get(line)
    if (entry === undefined) byLine.set(line, { column, severity, names: new Set([name(f.codePoint)]), where: new Set([where]) })
    else {
      entry.names.add(name(f.codePoint))
      entry.where.add(where)
      if (severity === "error") entry.severity = "error"
    }
  }
  let s = 0
  for (let k = 0; k < found.length; ) {
    const f = found[k] as Found
    while (s < spans.length && (spans[s] as LexicalSpan).end <= f.offset) s += 1
    const span = spans[s]
    if (span === undefined || span.start > f.offset) {
      report(f, "error", "in code, where it changes how the code around it is shown")
      k += 1
      continue
    }
    // Every hidden character of this string or comment together.
    const inSpan: Array<Found> = []
    while (k < found.length && (found[k] as Found).offset < span.end) inSpan.push(found[k++] as Found)
    const bidi = inSpan.filter((x) => isBidiControl(x.codePoint)).map((x) => x.codePoint)
    const open = !balanced(bidi)
    const what = span.kind === "str" ? "a string" : "a comment"
    for (const x of inSpan) {
      if (open && isBidiControl(x.codePoint)) report(x, "error", `in ${what} whose direction controls are not closed in order within it, so the code after it is shown reordered`)
      else report(x, "warning", `in ${what}`)
    }
  }
  return [...byLine.entries()].map(([line, e]) => ({
    line,
    column: e.column,
    severity: e.severity,
    note: `the line holds ${[...e.names].join(", ")} ${[...e.where].join("; ")}`,
  }))
}

const name = (codePoint: number): string => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")} ${hiddenCharacterName(codePoint)}`

const positionOf = (source: string, offset: number): { readonly line: number; readonly column: number } => {
  let line = 1
  let lineStart = 0
  for (let i = source.indexOf("\n"); i >= 0 && i < offset; i = source.indexOf("\n", i + 1)) {
    line += 1
    lineStart = i + 1
  }
  return { line, column: offset - lineStart + 1 }
}
