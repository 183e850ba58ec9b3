// A GDScript tokenizer for pattern checks (Godot 3 and 4 syntax). It knows exactly what a
// reviewer needs: where comments and strings are, so that text inside them never matches a code
// pattern, and the value of each string literal, so that `call("execute")` does.
// It never fails: malformed input still yields tokens, and an unterminated single-line string ends
// at the line break (the engine rejects such a script, and what follows is still checked as code).

export type TokenKind = "identifier" | "string" | "number" | "operator" | "newline" | "annotation" | "nodepath"

export interface Token {
  readonly kind: TokenKind
  /** Identifier name, operator text, or the decoded value of a string literal. */
  readonly text: string
  readonly line: number
  readonly column: number
}

const IDENT_START = /[\p{L}_]/u
const IDENT_PART = /[\p{L}\p{N}_]/u
const OPERATORS = ["**=", "<<=", ">>=", "==", "!=", "<=", ">=", "&&", "||", ":=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->", "**", "<<", ">>", ".."]
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v", "0": "\0" }

export const tokenize = (source: string): ReadonlyArray<Token> => {
  const tokens: Array<Token> = []
  let i = 0
  let line = 1
  let lineStart = 0
  const push = (kind: TokenKind, text: string, at: number, atLine: number, atLineStart: number): void => {
    tokens.push({ kind, text, line: atLine, column: at - atLineStart + 1 })
  }
  const newline = (at: number): void => {
    line += 1
    lineStart = at + 1
  }
  const lastIsOperand = (): boolean => {
    const t = tokens.at(-1)
    return t !== undefined && (t.kind === "identifier" || t.kind === "number" || t.kind === "string" || t.text === ")" || t.text === "]")
  }

  const readString = (start: number, quoteAt: number, raw: boolean): void => {
    const quote = source[quoteAt] as string
    const triple = source[quoteAt + 1] === quote && source[quoteAt + 2] === quote
    const startLine = line
    const startLineStart = lineStart
    let j = quoteAt + (triple ? 3 : 1)
    let value = ""
    while (j < source.length) {
      const ch = source[j] as string
      if (triple ? source.startsWith(quote.repeat(3), j) : ch === quote) {
        j += triple ? 3 : 1
        break
      }
      if (ch === "\n") {
        if (!triple) break
        value += ch
        newline(j)
        j += 1
        continue
      }
      if (ch === "\\" && j + 1 < source.length) {
        const next = source[j + 1] as string
        if (raw) {
          // As in Python: the backslash stays, and only keeps the next character from ending the string.
          value += `\\${next}`
          if (next === "\n") newline(j + 1)
          j += 2
          continue
        }
        if (next === "\n") {
          newline(j + 1)
          j += 2
          continue
        }
        const digits = next === "u" ? 4 : next === "U" ? 6 : 0
        if (digits > 0 && /^[0-9a-fA-F]+$/.test(source.slice(j + 2, j + 2 + digits)) && j + 2 + digits <= source.length) {
          const code = Number.parseInt(source.slice(j + 2, j + 2 + digits), 16)
          value += code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd"
          j += 2 + digits
          continue
        }
        value += ESCAPES[next] ?? next
        j += 2
        continue
      }
      value += ch
      j += 1
    }
    push("string", value, start, startLine, startLineStart)
    i = j
  }

  while (i < source.length) {
    const ch = source[i] as string
    if (ch === "\n") {
      if (tokens.at(-1)?.kind !== "newline" && tokens.length > 0) push("newline", "\n", i, line, lineStart)
      newline(i)
      i += 1
      continue
    }
    if (ch === " " || ch === "\t" || ch === "\r" || ch === "\f" || ch === "\v" || ch === "\ufeff") {
      i += 1
      continue
    }
    if (ch === "\\" && (source[i + 1] === "\n" || (source[i + 1] === "\r" && source[i + 2] === "\n"))) {
      i += source[i + 1] === "\n" ? 1 : 2
      newline(i)
      i += 1
      continue
    }
    if (ch === "#") {
      while (i < source.length && source[i] !== "\n") i += 1
      continue
    }
    if (ch === '"' || ch === "'") {
      readString(i, i, false)
      continue
    }
    const next = source[i + 1]
    if ((ch === "r" || ch === "R") && (next === '"' || next === "'")) {
      readString(i, i + 1, true)
      continue
    }
    if ((ch === "&" || ch === "^") && (next === '"' || next === "'")) {
      readString(i, i + 1, false)
      continue
    }
    if (ch === "$" || (ch === "%" && next !== undefined && (IDENT_START.test(next) || next === '"') && !lastIsOperand())) {
      const start = i
      i += 1
      if (source[i] === '"' || source[i] === "'") {
        const before = tokens.length
        readString(start, i, false)
        const t = tokens[before]
        if (t !== undefined) tokens[before] = { ...t, kind: "nodepath" }
        continue
      }
      while (i < source.length && /[\p{L}\p{N}_/%]/u.test(source[i] as string)) i += 1
      push("nodepath", source.slice(start, i), start, line, lineStart)
      continue
    }
    if (ch === "@" && next !== undefined && IDENT_START.test(next)) {
      const start = i
      i += 1
      while (i < source.length && IDENT_PART.test(source[i] as string)) i += 1
      push("annotation", source.slice(start + 1, i), start, line, lineStart)
      continue
    }
    if (IDENT_START.test(ch)) {
      const start = i
      i += 1
      while (i < source.length && IDENT_PART.test(source[i] as string)) i += 1
      push("identifier", source.slice(start, i), start, line, lineStart)
      continue
    }
    if (/[0-9]/.test(ch)) {
      const start = i
      while (i < source.length && /[0-9A-Za-z_.]/.test(source[i] as string)) {
        if (source[i] === "." && !/[0-9eE]/.test(source[i + 1] ?? "")) break
        i += 1
      }
      push("number", source.slice(start, i), start, line, lineStart)
      continue
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i)) ?? ch
    push("operator", op, i, line, lineStart)
    i += op.length
  }
  return tokens
}
