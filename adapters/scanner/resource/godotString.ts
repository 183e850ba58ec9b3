// Godot's text-resource string escapes (variant_parser.cpp): the writer only escapes `\` and `"`;
// the reader also understands \b \t \n \f \r \uXXXX \UXXXXXX, and `\x` stands for `x` otherwise.

const SIMPLE: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r" }

/** Length of the raw escape starting at `raw[i]` (which is a backslash) and the text it stands for. */
const escapeAt = (raw: string, i: number): { readonly length: number; readonly text: string } => {
  const next = raw[i + 1]
  if (next === undefined) return { length: 1, text: "" }
  const simple = SIMPLE[next]
  if (simple !== undefined) return { length: 2, text: simple }
  const digits = next === "u" ? 4 : next === "U" ? 6 : 0
  if (digits > 0) {
    const hex = raw.slice(i + 2, i + 2 + digits)
    if (hex.length === digits && /^[0-9a-fA-F]+$/.test(hex)) {
      const code = Number.parseInt(hex, 16)
      return { length: 2 + digits, text: code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd" }
    }
  }
  return { length: 2, text: next }
}

export const unescapeGodotString = (raw: string): string => {
  if (!raw.includes("\\")) return raw
  let out = ""
  for (let i = 0; i < raw.length; ) {
    if (raw[i] === "\\") {
      const e = escapeAt(raw, i)
      out += e.text
      i += e.length
    } else {
      out += raw[i]
      i += 1
    }
  }
  return out
}

/**
 * Maps a 1-based (line, column) in the unescaped string to the position of the same character in
 * the file, given where the raw string content starts. Exact even when escapes shift columns or a
 * `\n` escape joins two script lines on one file line.
 */
export const mapUnescapedPosition = (
  raw: string,
  start: { readonly line: number; readonly column: number },
  target: { readonly line: number; readonly column: number },
): { readonly line: number; readonly column: number } => {
  let rawLine = start.line
  let rawColumn = start.column
  let line = 1
  let column = 1
  for (let i = 0; i < raw.length; ) {
    if (line > target.line || (line === target.line && column >= target.column)) break
    const e = raw[i] === "\\" ? escapeAt(raw, i) : { length: 1, text: raw[i] ?? "" }
    for (const ch of e.text) {
      if (ch === "\n") {
        line += 1
        column = 1
      } else column += ch.length
    }
    for (let k = 0; k < e.length; k++) {
      if (raw[i + k] === "\n") {
        rawLine += 1
        rawColumn = 1
      } else rawColumn += 1
    }
    i += e.length
  }
  return { line: rawLine, column: rawColumn }
}
