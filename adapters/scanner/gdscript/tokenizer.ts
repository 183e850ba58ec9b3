// The GDScript tokenizer, following the rules of Godot's own (modules/gdscript/gdscript_tokenizer.cpp
// of 3.x and 4.x; written from those rules, not from its code). Where a script is valid for the
// engine, the tokens here are the engine's: strings, comments, escapes and line continuations end
// exactly where the engine ends them, so no code can hide inside what this reads as a string.
// Where the engine would reject the script (it then never runs) this stays lenient and keeps going,
// reading as much as possible as code.

export type Grammar = 3 | 4

export type TokenKind = "id" | "str" | "num" | "op" | "nl" | "ann" | "eof"

/** `&"…"` StringName, `^"…"` NodePath (4.x), `@"…"` NodePath (3.x), `r"…"` raw, or a plain string. */
export type StringFlavor = "" | "&" | "^" | "@" | "r"

/** Whether a string literal of this prefix is a NodePath: 3.x `@"…"`, 4.x `^"…"`. */
export const isNodePathFlavor = (flavor: string | undefined, grammar: Grammar): boolean => flavor === (grammar === 4 ? "^" : "@")

export interface Token {
  readonly kind: TokenKind
  /** Identifier or operator text, the decoded value of a string, a number's source text. */
  readonly text: string
  readonly line: number
  /** 1-based, in UTF-16 code units from the start of the line. */
  readonly column: number
  readonly flavor?: StringFlavor
  /** For `nl`: the width of the next line's indentation (a tab counts 4). */
  readonly indent?: number
}

const OPERATORS_3 = ["<<=", ">>=", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->", "<<", ">>"]
const OPERATORS_4 = ["**=", "<<=", ">>=", "...", "**", ...OPERATORS_3, ".."]
const ESCAPES: Readonly<Record<string, string>> = { a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "'": "'", '"': '"', "\\": "\\" }

/** U+FFFF: Godot 3's tokenizer ends a string there and makes it a token of its own (TK_CURSOR, gdscript_tokenizer.cpp). */
const CURSOR = "\uffff"

const isDigit = (c: number): boolean => c >= 48 && c <= 57
const isAsciiIdentStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95
const UNICODE_START = /[\p{L}\p{Nl}_]/u
const UNICODE_PART = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]/u
const isIdentStart = (ch: string, c: number): boolean => isAsciiIdentStart(c) || (c > 127 && UNICODE_START.test(ch))
const isIdentPart = (ch: string, c: number): boolean => isAsciiIdentStart(c) || isDigit(c) || (c > 127 && UNICODE_PART.test(ch))
/** How many UTF-16 code units the character at `at` takes (none past the end): the engine's strings hold code points. */
const codeUnitsAt = (source: string, at: number): number => (at >= source.length ? 0 : (source.codePointAt(at) ?? 0) > 0xffff ? 2 : 1)
const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)

/** Where a string literal (prefix and quotes included) or a comment lies in the source, as UTF-16 offsets. */
export interface LexicalSpan {
  readonly kind: "str" | "comment"
  readonly start: number
  readonly end: number
}

/**
 * The tokens of a script. `spans`, when given, receives the string literals and comments in source
 * order (for checks on the characters inside them).
 */
export const tokenize = (source: string, grammar: Grammar, spans?: Array<LexicalSpan>): Array<Token> => {
  const tokens: Array<Token> = []
  const operators = grammar === 3 ? OPERATORS_3 : OPERATORS_4
  const n = source.length
  let i = 0
  let line = 1
  let lineStart = 0
  const push = (kind: TokenKind, text: string, at: number, atLine = line, atLineStart = lineStart, flavor?: StringFlavor): void => {
    tokens.push(flavor === undefined ? { kind, text, line: atLine, column: at - atLineStart + 1 } : { kind, text, line: atLine, column: at - atLineStart + 1, flavor })
  }
  const newlineAt = (at: number): void => {
    line += 1
    lineStart = at + 1
  }
  const indentAt = (at: number): { readonly width: number; readonly end: number } => {
    let width = 0
    // Godot 3 counts only the spaces and tabs before anything else, a carriage return too, which it then skips as a
    // space (3.x GDScriptTokenizerText::_advance): `\r\tfunc f():` is at the class's level (a hundred-and-fourteenth
    // red team's function moved out of an inner class that way). It counts a tab as one, as a space (a line of one
    // space after `<TAB>` and `<TAB><4 spaces>` levels closes only the second: a hundred-and-fifteenth red team's);
    // Godot 4 counts a tab as its tab size, four.
    const tab = grammar === 3 ? 1 : 4
    let counted = true
    let j = at
    for (; j < n; j++) {
      const c = source.charCodeAt(j)
      if (c === 32) width += counted ? 1 : 0
      else if (c === 9) width += counted ? tab : 0
      else if (c === 13) counted &&= grammar !== 3
      else if (c !== 12) break
    }
    return { width, end: j }
  }

  /** Reads a string whose opening quote is at `quoteAt`; `start` is where its prefix starts. */
  const readString = (start: number, quoteAt: number, flavor: StringFlavor): void => {
    const quote = source[quoteAt] as string
    const triple = source[quoteAt + 1] === quote && source[quoteAt + 2] === quote && (grammar === 4 || quote === '"')
    const raw = flavor === "r"
    const startLine = line
    const startLineStart = lineStart
    let j = quoteAt + (triple ? 3 : 1)
    let value = ""
    for (;;) {
      if (j >= n) break
      const ch = source[j] as string
      // Godot 3 ends any string at U+FFFF, the editor's completion cursor (a token of its own after the string).
      if (grammar === 3 && ch === CURSOR) break
      if (ch === quote) {
        if (!triple) {
          j += 1
          break
        }
        if (source[j + 1] === quote && source[j + 2] === quote) {
          j += 3
          break
        }
        value += ch
        j += 1
        continue
      }
      if (ch === "\n") {
        // Godot 3 rejects a line break in a one-line string: read on as code, the safer reading.
        if (!triple && grammar === 3) break
        value += ch
        newlineAt(j)
        j += 1
        continue
      }
      if (ch === "\\" && j + 1 < n) {
        const next = source[j + 1] as string
        if (grammar === 3 && next === CURSOR) {
          // The engine rejects the script; the string is read as ending at the cursor, the reading with more code.
          j += 1
          break
        }
        if (raw) {
          // Raw strings (4.x): the backslash stays; it only keeps a quote or a backslash from ending things.
          value += next === quote || next === "\\" ? `\\${next}` : "\\"
          j += next === quote || next === "\\" ? 2 : 1
          continue
        }
        if (next === "\n") {
          // 4.x: an escaped line break continues the string. 3.x rejects the script.
          j += 2
          newlineAt(j - 1)
          continue
        }
        if (next === "\r" && grammar === 4) {
          // 4.x string(), `case '\r'`: followed by a LF it falls through to the escaped line break without taking
          // the LF, which is then read as a character of the string (kept in its value).
          if (source[j + 2] === "\n") {
            j += 2
            continue
          }
          // Followed by anything else it keeps the backslash (`result += ch`), swallows the character after the CR
          // (`_advance()`), a closing quote included, and appends the escape's zero value (a NUL, which recent 4.x
          // Strings refuse): `"\<CR>" + "…"` is one string. 3.x rejects the escape.
          value += "\\\u0000"
          j += 2 + codeUnitsAt(source, j + 2)
          continue
        }
        if (next === "u" || (next === "U" && grammar === 4)) {
          const digits = next === "u" ? 4 : 6
          let code = 0
          let k = 0
          for (; k < digits && isHex(source.charCodeAt(j + 2 + k)); k++) code = code * 16 + Number.parseInt(source[j + 2 + k] as string, 16)
          value += code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd"
          j += 2 + k
          continue
        }
        if (next === "/" && grammar === 3) {
          value += "/"
          j += 2
          continue
        }
        // Unknown escapes make the engine reject the script; keep the character.
        value += ESCAPES[next] ?? next
        if (next === "\n") newlineAt(j + 1)
        j += 2
        continue
      }
      value += ch
      j += 1
    }
    push("str", value, start, startLine, startLineStart, flavor)
    spans?.push({ kind: "str", start, end: j })
    i = j
  }

  /**
   * Godot 3 reads a number as one loop over its characters: a point (once, before any exponent), `x` or `b` after a
   * leading 0, hex digits after `0x`, one `e` (not in a hex or binary number), digits, one sign anywhere after the
   * `e` (`1e0-1` is one number, 1.0: a hundred-and-twenty-eighth red team's), `_` skipped; anything else ends it
   * (`0b1and` is `0b1` then `and`). Where the engine stops with an error (the script never runs) this just ends.
   */
  const readNumber3 = (start: number): number => {
    let j = start
    let [period, exponent, hexa, bin, sign, digits] = [false, false, false, false, false, ""]
    for (; j < n; j += 1) {
      const ch = source[j] as string
      const c = source.charCodeAt(j)
      if (ch === "_") continue
      if (ch === ".") {
        if (period || exponent || hexa || bin) break
        period = true
      } else if (ch === "x") {
        if (hexa || bin || digits !== "0") break
        hexa = true
      } else if (hexa && isHex(c)) {
        // a hex digit
      } else if (ch === "b") {
        if (bin || digits !== "0") break
        bin = true
      } else if (ch === "e") {
        if (exponent || bin) break
        exponent = true
      } else if (isDigit(c)) {
        // a digit
      } else if ((ch === "-" || ch === "+") && exponent) {
        if (sign) break
        sign = true
      } else break
      digits += ch
    }
    return j
  }

  const readNumber = (start: number): void => {
    let j = start
    if (grammar === 3) j = readNumber3(start)
    else if (source[j] === "0" && (source[j + 1] === "x" || source[j + 1] === "X" || source[j + 1] === "b" || source[j + 1] === "B")) {
      // A binary number takes only 0, 1 and `_` (4.x's _is_binary_digit).
      const binary = source[j + 1] === "b" || source[j + 1] === "B"
      j += 2
      while (j < n && ((binary ? source[j] === "0" || source[j] === "1" : isHex(source.charCodeAt(j))) || source[j] === "_")) j += 1
    } else {
      while (j < n && (isDigit(source.charCodeAt(j)) || source[j] === "_")) j += 1
      // 4.x: a point not followed by another is the number's (`1.e5` is 100000.0; `1.x` the engine refuses).
      const exponentNext = (source[j + 1] === "e" || source[j + 1] === "E") && (isDigit(source.charCodeAt(j + 2)) || ((source[j + 2] === "+" || source[j + 2] === "-") && isDigit(source.charCodeAt(j + 3))))
      if (source[j] === "." && source[j + 1] !== "." && (exponentNext || !isIdentStart(source[j + 1] ?? "", source.charCodeAt(j + 1)))) {
        j += 1
        while (j < n && (isDigit(source.charCodeAt(j)) || source[j] === "_")) j += 1
      }
      if ((source[j] === "e" || source[j] === "E") && (isDigit(source.charCodeAt(j + 1)) || ((source[j + 1] === "+" || source[j + 1] === "-") && isDigit(source.charCodeAt(j + 2))))) {
        j += 2
        while (j < n && (isDigit(source.charCodeAt(j)) || source[j] === "_")) j += 1
      }
    }
    push("num", source.slice(start, j), start)
    i = j
  }

  const pushNewline = (at: number): void => {
    const last = tokens.at(-1)
    const { width } = indentAt(at + 1)
    if (last === undefined) return
    if (last.kind === "nl") tokens[tokens.length - 1] = { ...last, indent: width }
    else tokens.push({ kind: "nl", text: "\n", line, column: at - lineStart + 1, indent: width })
  }

  while (i < n) {
    const c = source.charCodeAt(i)
    const ch = source[i] as string
    if (c === 10) {
      pushNewline(i)
      newlineAt(i)
      i += 1
      continue
    }
    // Godot 3's cursor token (U+FFFF) is skipped where the parser allows it (a `$` path) and rejected elsewhere.
    if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xfeff || (grammar === 3 && c === 0xffff)) {
      i += 1
      continue
    }
    if (ch === "#") {
      const start = i
      while (i < n && source.charCodeAt(i) !== 10) i += 1
      spans?.push({ kind: "comment", start, end: i })
      continue
    }
    // Godot 3 keeps characters above U+FFFF in code only where a string is 16-bit (Windows, 3.0-3.3),
    // as a space; everywhere else it rejects the script. So a space is the only reading that runs.
    if (grammar === 3 && c >= 0xd800 && c <= 0xdbff) {
      const low = source.charCodeAt(i + 1)
      if (low >= 0xdc00 && low <= 0xdfff) {
        i += 2
        continue
      }
    }
    if (ch === "\\") {
      let j = i + 1
      if (source[j] === "\r") j += 1
      if (source[j] === "\n") {
        newlineAt(j)
        i = j + 1
        // 4.x also skips the blank and comment-only lines that follow a continuation.
        if (grammar === 4) {
          for (;;) {
            const { end } = indentAt(i)
            if (source[end] === "\n") {
              newlineAt(end)
              i = end + 1
            } else if (source[end] === "#") {
              let k = end
              while (k < n && source.charCodeAt(k) !== 10) k += 1
              spans?.push({ kind: "comment", start: end, end: k })
              if (k >= n) {
                i = k
                break
              }
              newlineAt(k)
              i = k + 1
            } else break
          }
        }
        continue
      }
      push("op", "\\", i)
      i += 1
      continue
    }
    if (ch === '"' || ch === "'") {
      readString(i, i, "")
      continue
    }
    const next = source[i + 1]
    if (next === '"' || next === "'") {
      if (grammar === 4 && (ch === "r" || ch === "&" || ch === "^")) {
        readString(i, i + 1, ch as StringFlavor)
        continue
      }
      if (grammar === 3 && ch === "@") {
        readString(i, i + 1, "@")
        continue
      }
    }
    if (isDigit(c) || (ch === "." && isDigit(source.charCodeAt(i + 1)))) {
      readNumber(i)
      continue
    }
    if (isIdentStart(ch, c) || (c >= 0xd800 && c <= 0xdbff && isIdentStart(String.fromCodePoint(source.codePointAt(i) ?? 0), 0x10000))) {
      const start = i
      i += c >= 0xd800 && c <= 0xdbff ? 2 : 1
      while (i < n) {
        const cc = source.charCodeAt(i)
        if (cc >= 0xd800 && cc <= 0xdbff) {
          // Godot 3: the character is a space (see above), so it ends the name.
          if (grammar === 3 || !isIdentPart(String.fromCodePoint(source.codePointAt(i) ?? 0), 0x10000)) break
          i += 2
        } else if (isIdentPart(source[i] as string, cc)) i += 1
        else break
      }
      push("id", source.slice(start, i), start)
      continue
    }
    if (ch === "@" && grammar === 4 && next !== undefined && isIdentStart(next, source.charCodeAt(i + 1))) {
      const start = i
      i += 1
      while (i < n && isIdentPart(source[i] as string, source.charCodeAt(i))) i += 1
      push("ann", source.slice(start + 1, i), start)
      continue
    }
    let op = ch
    for (const o of operators) {
      if (source.startsWith(o, i)) {
        op = o
        break
      }
    }
    push("op", op, i)
    i += op.length
  }
  const last = tokens.at(-1)
  if (last !== undefined && last.kind !== "nl") tokens.push({ kind: "nl", text: "\n", line, column: i - lineStart + 1, indent: 0 })
  tokens.push({ kind: "eof", text: "", line, column: i - lineStart + 1 })
  return tokens
}
