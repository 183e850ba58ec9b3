import type { Grammar } from "./tokenizer.ts"

// Constant folding of String methods and `%` formatting exactly as the engine computes them
// (String in core/ustring.cpp of 3.x, core/string/ustring.cpp of 4.x; written from the behaviour of those
// functions). A method not listed here, an argument of another type, a wrong argument count, or a
// result that would depend on the platform (Godot 3 keeps a character above U+FFFF as one character
// on Linux and as two, or a space, on Windows) is not folded: the value is then not constant, never a
// guess.

/** A constant argument: a string, a number (`float` when written as one), a bool or null. */
export type FoldArg = { readonly s: string } | { readonly n: number; readonly float: boolean } | { readonly b: boolean } | { readonly nil: true }

/** Code points of a string, or null when Godot 3's result would depend on the platform. */
const chars = (s: string, grammar: Grammar): ReadonlyArray<number> | null => {
  const out: Array<number> = []
  for (const ch of s) {
    const c = ch.codePointAt(0) as number
    if (grammar === 3 && c > 0xffff) return null
    out.push(c)
  }
  return out
}

const text = (points: ReadonlyArray<number>): string => {
  let out = ""
  for (let i = 0; i < points.length; i += 8192) out += String.fromCodePoint(...points.slice(i, i + 8192))
  return out
}

/** `substr(from, count)`: count -1 means to the end; out of range gives "". */
const substr = (s: ReadonlyArray<number>, from: number, count: number): ReadonlyArray<number> => {
  const n = count === -1 ? s.length - from : count
  if (s.length === 0 || from < 0 || from >= s.length || n <= 0) return []
  return s.slice(from, Math.min(s.length, from + n))
}

/** Position of `key` in `s` from `from`, or -1 (an empty key or string finds nothing). */
const find = (s: ReadonlyArray<number>, key: ReadonlyArray<number>, from: number): number => {
  if (from < 0 || key.length === 0 || s.length === 0) return -1
  for (let i = from; i <= s.length - key.length; i++) {
    let k = 0
    while (k < key.length && s[i + k] === key[k]) k += 1
    if (k === key.length) return i
  }
  return -1
}

const startsWith = (s: ReadonlyArray<number>, p: ReadonlyArray<number>): boolean => p.length <= s.length && p.every((c, i) => s[i] === c)
const endsWith = (s: ReadonlyArray<number>, p: ReadonlyArray<number>): boolean => p.length <= s.length && p.every((c, i) => s[s.length - p.length + i] === c)

const isAscii = (s: ReadonlyArray<number>): boolean => s.every((c) => c < 0x80)

/** An integer argument (a whole float converts as the engine converts it), or null. */
const int = (a: FoldArg | undefined): number | null => (a !== undefined && "n" in a && Number.isInteger(a.n) && Math.abs(a.n) < 2 ** 31 ? a.n : null)
const bool = (a: FoldArg | undefined, fallback: boolean): boolean | null => (a === undefined ? fallback : "b" in a ? a.b : null)

/** The methods folded here, per grammar (for documentation and tests). */
export const FOLDED_METHODS: Readonly<Record<Grammar, ReadonlyArray<string>>> = {
  3: ["to_lower", "to_upper", "strip_edges", "lstrip", "rstrip", "replace", "trim_prefix", "trim_suffix", "plus_file", "substr", "left", "right", "insert", "get_basename"],
  4: ["to_lower", "to_upper", "strip_edges", "lstrip", "rstrip", "replace", "trim_prefix", "trim_suffix", "path_join", "substr", "left", "right", "insert", "get_basename"],
}

/** `recv.name(args)` for a String method folded here, or null. */
export const foldStringMethod = (grammar: Grammar, name: string, recv: string, args: ReadonlyArray<FoldArg>): string | null => {
  if (!FOLDED_METHODS[grammar].includes(name)) return null
  const s = chars(recv, grammar)
  if (s === null) return null
  const str = (i: number): ReadonlyArray<number> | null => {
    const a = args[i]
    return a !== undefined && "s" in a ? chars(a.s, grammar) : null
  }
  const result = ((): ReadonlyArray<number> | null => {
    switch (name) {
      case "to_lower":
      case "to_upper":
        // Only ASCII: the engine's case tables are its own.
        if (args.length !== 0 || !isAscii(s)) return null
        return s.map((c) => (name === "to_lower" ? (c >= 65 && c <= 90 ? c + 32 : c) : c >= 97 && c <= 122 ? c - 32 : c))
      case "strip_edges": {
        const left = bool(args[0], true)
        const right = bool(args[1], true)
        if (left === null || right === null || args.length > 2) return null
        let beg = 0
        let end = s.length
        if (left) while (beg < s.length && (s[beg] as number) <= 32) beg += 1
        if (right) while (end > 0 && (s[end - 1] as number) <= 32) end -= 1
        return beg === 0 && end === s.length ? s : substr(s, beg, end - beg)
      }
      case "lstrip":
      case "rstrip": {
        const set = str(0)
        if (set === null || args.length !== 1) return null
        if (name === "lstrip") {
          let beg = 0
          while (beg < s.length && set.includes(s[beg] as number)) beg += 1
          return beg === 0 ? s : substr(s, beg, s.length - beg)
        }
        let end = s.length - 1
        while (end >= 0 && set.includes(s[end] as number)) end -= 1
        return end === s.length - 1 ? s : substr(s, 0, end + 1)
      }
      case "replace": {
        const key = str(0)
        const by = str(1)
        if (key === null || by === null || args.length !== 2) return null
        const out: Array<number> = []
        let from = 0
        for (let at = find(s, key, 0); at >= 0; at = find(s, key, from)) {
          out.push(...s.slice(from, at), ...by)
          from = at + key.length
        }
        return from === 0 ? s : [...out, ...s.slice(from)]
      }
      case "trim_prefix":
      case "trim_suffix": {
        const p = str(0)
        if (p === null || args.length !== 1) return null
        if (name === "trim_prefix") return startsWith(s, p) ? substr(s, p.length, s.length - p.length) : s
        return endsWith(s, p) ? substr(s, 0, s.length - p.length) : s
      }
      case "plus_file":
      case "path_join": {
        const file = str(0)
        if (file === null || args.length !== 1) return null
        if (s.length === 0) return file
        return s[s.length - 1] === 0x2f || file[0] === 0x2f ? [...s, ...file] : [...s, 0x2f, ...file]
      }
      case "substr": {
        const from = int(args[0])
        const count = args.length > 1 ? int(args[1]) : -1
        if (from === null || count === null || args.length > 2) return null
        return substr(s, from, count)
      }
      case "get_basename": {
        // String::get_basename: up to the last ".", unless a "/" or "\\" comes after it (a sixtieth red team wrote
        // "user://x.tres.remap.json".get_basename()).
        if (args.length !== 0) return null
        const dot = s.lastIndexOf(46)
        return dot < 0 || dot < Math.max(s.lastIndexOf(47), s.lastIndexOf(92)) ? s : substr(s, 0, dot)
      }
      case "left":
      case "right": {
        const n = int(args[0])
        if (n === null || args.length !== 1) return null
        if (grammar === 3) {
          // 3.x: left(pos) is the part before pos, right(pos) the part from pos on.
          if (name === "left") return n <= 0 ? [] : n >= s.length ? s : substr(s, 0, n)
          return n >= s.length ? [] : n <= 0 ? s : substr(s, n, s.length - n)
        }
        // 4.x: the first or last n characters; a negative n counts all but that many.
        const len = n < 0 ? s.length + n : n
        if (len <= 0) return []
        if (len >= s.length) return s
        return name === "left" ? s.slice(0, len) : s.slice(s.length - len)
      }
      case "insert": {
        // A negative position leaves the string as it is; one past the end appends.
        const pos = int(args[0])
        const what = str(1)
        if (pos === null || what === null || args.length !== 2) return null
        if (pos < 0) return s
        const at = Math.min(pos, s.length)
        return [...s.slice(0, at), ...what, ...s.slice(at)]
      }
      default:
        return null
    }
  })()
  return result === null ? null : text(result)
}

/** `parts` joined by `delimiter` (3.x `PoolStringArray.join`, 4.x `String.join` and `PackedStringArray.join`). */
export const joinStrings = (delimiter: string, parts: ReadonlyArray<string>): string => parts.join(delimiter)

/** How `str()` and `%s` show a constant, or null where the engines differ or it is not folded (floats, objects). */
export const stringOfArg = (grammar: Grammar, a: FoldArg): string | null => {
  if ("s" in a) return a.s
  if ("n" in a) return a.float || !Number.isInteger(a.n) ? null : String(a.n)
  if ("b" in a) return grammar === 3 ? (a.b ? "True" : "False") : a.b ? "true" : "false"
  return grammar === 3 ? "Null" : "<null>"
}

/**
 * `format % args` (String::sprintf): `%s`, `%d`, `%c` and `%%` without flags, widths or precision;
 * null for anything else, and where the engine reports an error (too few or too many arguments, a
 * wrong type), which stops the script.
 */
export const formatString = (grammar: Grammar, format: string, args: ReadonlyArray<FoldArg>): string | null => {
  let i = 0
  let out = ""
  for (let k = 0; k < format.length; k++) {
    const ch = format[k]
    if (ch !== "%") {
      out += ch
      continue
    }
    const next = format[++k]
    if (next === "%") {
      out += "%"
      continue
    }
    const a = args[i++]
    if (a === undefined) return null
    if (next === "s") {
      const shown = stringOfArg(grammar, a)
      if (shown === null) return null
      out += shown
    } else if (next === "d") {
      if (!("n" in a) || !Number.isSafeInteger(Math.trunc(a.n))) return null
      out += String(Math.trunc(a.n))
    } else if (next === "c") {
      // 3.x takes a byte value, 4.x any code point but a surrogate; String::chr(0) is "" (it copies up to the NUL).
      if ("n" in a && Number.isInteger(a.n) && !a.float && a.n >= 0 && (grammar === 3 ? a.n <= 255 : a.n <= 0x10ffff && (a.n < 0xd800 || a.n > 0xdfff))) out += a.n === 0 ? "" : String.fromCodePoint(a.n)
      else if ("s" in a && [...a.s].length === 1) out += a.s
      else return null
    } else return null
  }
  return i === args.length ? out : null
}
