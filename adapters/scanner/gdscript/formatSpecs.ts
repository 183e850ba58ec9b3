import type { Grammar } from "./tokenizer.ts"

// String's `%` operator read the way the engine reads its format (String::sprintf: core/ustring.cpp in 3.x,
// core/string/ustring.cpp in 4.x): after a `%`, flags (`-`, `+`, 4.x `u`), digits (width, or precision after one
// `.`) and `*` (a width or precision taken from the next value) may come in any order, and the conversion ends at
// `%` (a literal percent sign, whatever flags came before: `"%-%%s"` is "%" then `%s`), `d`/`o`/`x`/`X`/`f`
// (a number), `s` (any value as text), `c` (one character) or 4.x `v` (a vector). Any other character, a second
// `.`, or a `%` left open at the end is an error, and an error stops the script: the operator gives no value.

/** A piece of a parsed format: constant text, or what one conversion puts in (`width`: a `*` taking a number, putting in nothing). */
export type FormatPart =
  | { readonly k: "text"; readonly text: string }
  | { readonly k: "number" | "vector" | "string" | "char" | "width" }

/** Conversions that take a value; `width` (`*`) takes one too. */
export const takesValue = (part: FormatPart): boolean => part.k !== "text"

/** Conversions that put in only a number's characters (digits, a sign, a point; a 4.x vector's parentheses and commas): never a `[`, a `/` or a NUL. */
export const isNumeric = (part: FormatPart): boolean => part.k === "number" || part.k === "vector" || part.k === "width"

/** The parts of `format` as the engine of `grammar` reads them, or null where the format alone makes it report an error. */
export const parseFormat = (format: string, grammar: Grammar): ReadonlyArray<FormatPart> | null => {
  const parts: Array<FormatPart> = []
  let text = ""
  const put = (part: FormatPart): void => {
    if (text !== "") parts.push({ k: "text", text })
    text = ""
    parts.push(part)
  }
  let inFormat = false
  let inDecimals = false
  for (const c of format) {
    if (!inFormat) {
      if (c === "%") {
        inFormat = true
        inDecimals = false
      } else text += c
      continue
    }
    if (c === "%") {
      text += "%"
      inFormat = false
    } else if (c === "d" || c === "o" || c === "x" || c === "X" || c === "f") {
      put({ k: "number" })
      inFormat = false
    } else if (c === "v" && grammar === 4) {
      put({ k: "vector" })
      inFormat = false
    } else if (c === "s") {
      put({ k: "string" })
      inFormat = false
    } else if (c === "c") {
      put({ k: "char" })
      inFormat = false
    } else if (c === "*") put({ k: "width" })
    else if (c === ".") {
      if (inDecimals) return null
      inDecimals = true
    } else if (!(c === "-" || c === "+" || (c === "u" && grammar === 4) || (c >= "0" && c <= "9"))) return null
  }
  if (inFormat) return null
  if (text !== "") parts.push({ k: "text", text })
  return parts
}

/** The constant text after a parsed format's last conversion (`"save_%03d.json"` → `".json"`). */
export const textAfterLast = (parts: ReadonlyArray<FormatPart>): string => {
  let out = ""
  for (const part of parts) out = part.k === "text" ? out + part.text : ""
  return out
}
