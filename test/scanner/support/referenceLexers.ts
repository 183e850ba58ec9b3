// Separate, deliberately plain models of where Godot's GDScript tokenizers put strings and comments, for the
// property test that compares the scanner's tokenizer with them (redTeam14d.property.test.ts). They cover only what
// decides string and comment boundaries: whitespace, carriage returns, line breaks, `\` continuations, comments,
// strings with every prefix, quote and escape, identifiers (a prefix letter inside a name opens no string) and a few
// operators; any other character, and every input the engine rejects, gives null (the engine then runs nothing).
//
// Godot 4 (modules/gdscript/gdscript_tokenizer.cpp of 4.0-4.5, GDScriptTokenizerText): `_skip_whitespace` takes a CR
// only before a LF ("Stray carriage return" otherwise); `scan` takes `\` only before [CR]LF; `string()` decodes
// escapes, and its `case '\r'` without a LF after it keeps the backslash, swallows the next character and appends
// the escape's zero value; with a LF after it, it leaves the LF to be read as a character of the string.
// Godot 3 (3.2.3 and 3.5, GDScriptTokenizerText::_advance): a CR is whitespace in code; `\` takes an optional CR then
// a LF; only `"` has a `"""` form; a LF ends no multi-line string but rejects a one-line one; `\` escapes a b t n v
// f r ' " \ / and u with four hex digits, anything else (a CR, a LF) rejects the script.

export interface LexicalRun {
  readonly kind: "str" | "comment"
  readonly start: number
  readonly end: number
  /** A string's decoded value. */
  readonly value?: string
}

const QUOTES = new Set(['"', "'"])
const isLetter = (c: string | undefined): boolean => c !== undefined && /^[A-Za-z_]$/.test(c)
const isHexDigit = (c: string | undefined): boolean => c !== undefined && /^[0-9A-Fa-f]$/.test(c)
/** Operators the generator uses, in both engines. */
const OPERATORS = new Set(["+", "&", "^", "=", "(", ")", ",", ";", "."])
/** UTF-16 units of the code point at `i` (the engines' strings hold code points). */
const width = (s: string, i: number): number => ((s.codePointAt(i) ?? 0) > 0xffff ? 2 : 1)
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "'": "'", '"': '"', "\\": "\\" }

/**
 * What both engines' code scanning shares: whitespace, CRs (a space in 3.x, only before a LF in 4.x), comments to the
 * line feed, `\` continuations before [CR]LF (the spaces after them are whitespace anyway), identifiers, operators;
 * `stringAt` reads a string starting at `i` (its end, null when rejected) or gives undefined when none starts there.
 */
const runsOf = (s: string, runs: Array<LexicalRun>, crIsSpace: boolean, stringAt: (i: number) => number | null | undefined): ReadonlyArray<LexicalRun> | null => {
  let i = 0
  while (i < s.length) {
    const c = s[i] as string
    if (c === " " || c === "\t" || c === "\n") i += 1
    else if (c === "\r") {
      if (!crIsSpace && s[i + 1] !== "\n") return null
      i += 1
    } else if (c === "#") {
      const start = i
      while (i < s.length && s[i] !== "\n") i += 1
      runs.push({ kind: "comment", start, end: i })
    } else if (c === "\\") {
      const lf = s[i + 1] === "\r" ? i + 2 : i + 1
      if (s[lf] !== "\n") return null
      i = lf + 1
    } else {
      const end = stringAt(i)
      if (end === null) return null
      if (end !== undefined) i = end
      else if (isLetter(c)) while (isLetter(s[i])) i += 1
      else if (OPERATORS.has(c)) i += 1
      else return null
    }
  }
  return runs
}

/** Godot 4's strings and comments in `s`, or null when the engine rejects it. */
export const godot4Runs = (s: string): ReadonlyArray<LexicalRun> | null => {
  const runs: Array<LexicalRun> = []
  const string = (start: number, quoteAt: number, raw: boolean): number | null => {
    const q = s[quoteAt]
    let j = quoteAt + 1
    const multi = s[j] === q && s[j + 1] === q
    if (multi) j += 2
    let value = ""
    for (;;) {
      if (j >= s.length) return null
      const c = s[j]
      if (c === "\\") {
        j += 1
        if (j >= s.length) return null
        if (raw) {
          if (s[j] === q || s[j] === "\\") {
            value += `\\${s[j]}`
            j += 1
            if (j >= s.length) return null
          } else value += "\\"
          continue
        }
        const code = s[j] as string
        j += width(s, j)
        if (j >= s.length) return null
        if (code in SIMPLE_ESCAPES) value += SIMPLE_ESCAPES[code]
        else if (code === "u" || code === "U") {
          let n = 0
          for (let k = 0; k < (code === "U" ? 6 : 4); k++) {
            if (j >= s.length || !isHexDigit(s[j])) return null
            n = n * 16 + Number.parseInt(s[j] as string, 16)
            j += 1
          }
          if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return null
          value += String.fromCodePoint(n)
        } else if (code === "\r" && s[j] !== "\n") {
          value += "\\\u0000"
          j += width(s, j)
        } else if (code !== "\r" && code !== "\n") return null
        continue
      }
      if (c === q) {
        j += 1
        if (!multi) break
        if (s[j] === q && s[j + 1] === q) {
          j += 2
          break
        }
        value += q
        continue
      }
      value += s.slice(j, j + width(s, j))
      j += width(s, j)
    }
    runs.push({ kind: "str", start, end: j, value })
    return j
  }
  return runsOf(s, runs, false, (i) => {
    const c = s[i] as string
    if (QUOTES.has(c)) return string(i, i, false)
    // `&&` is one operator token before the engine looks for a StringName's quote (`&&"x"` is `&&` then a string).
    if (c === "&" && s[i + 1] === "&") return i + 2
    if ((c === "r" || c === "&" || c === "^") && QUOTES.has(s[i + 1] ?? "")) return string(i, i + 1, c === "r")
    return undefined
  })
}

/** Godot 3's strings and comments in `s`, or null when the engine rejects it. */
export const godot3Runs = (s: string): ReadonlyArray<LexicalRun> | null => {
  const runs: Array<LexicalRun> = []
  const string = (start: number, quoteAt: number): number | null => {
    const q = s[quoteAt]
    let j = quoteAt + 1
    const multi = q === '"' && s[j] === '"' && s[j + 1] === '"'
    if (multi) j += 2
    let value = ""
    for (;;) {
      if (j >= s.length) return null
      const c = s[j] as string
      if (multi ? c === '"' && s[j + 1] === '"' && s[j + 2] === '"' : c === q) {
        j += multi ? 3 : 1
        break
      }
      if (c === "\n" && !multi) return null
      if (c === "\\") {
        const code = s[j + 1]
        if (code === undefined) return null
        if (code in SIMPLE_ESCAPES) value += SIMPLE_ESCAPES[code]
        else if (code === "/") value += "/"
        else if (code === "u") {
          if (![2, 3, 4, 5].every((k) => isHexDigit(s[j + k]))) return null
          value += String.fromCharCode(Number.parseInt(s.slice(j + 2, j + 6), 16))
          j += 4
        } else return null
        j += 2
        continue
      }
      value += c
      j += 1
    }
    runs.push({ kind: "str", start, end: j, value })
    return j
  }
  return runsOf(s, runs, true, (i) => {
    const c = s[i] as string
    if (QUOTES.has(c)) return string(i, i)
    if (c === "@" && QUOTES.has(s[i + 1] ?? "")) return string(i, i + 1)
    return undefined
  })
}
