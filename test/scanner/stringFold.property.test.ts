// Constant folding of String methods against reference implementations written separately from the
// engine's source (core/ustring.cpp of Godot 3.x, core/string/ustring.cpp of 4.x), step by step as the
// C++ does them, on random strings and arguments. A method the scanner does not fold exactly must give
// null (not constant), never a guess.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type FoldArg, FOLDED_METHODS, foldStringMethod, formatString } from "../../adapters/scanner/gdscript/stringFold.ts"

type Chars = Array<number>
const toChars = (s: string): Chars => Array.from(s, (c) => c.codePointAt(0) as number)
const fromChars = (c: Chars): string => String.fromCodePoint(...c)

// String::substr(p_from, p_chars)
const substr = (s: Chars, from: number, chars: number): Chars => {
  let n = chars
  if (n === -1) n = s.length - from
  if (s.length === 0 || from < 0 || from >= s.length || n <= 0) return []
  if (from + n > s.length) n = s.length - from
  const out: Chars = []
  for (let i = 0; i < n; i++) out.push(s[from + i] as number)
  return out
}
// String::find(p_str, p_from)
const find = (s: Chars, what: Chars, from: number): number => {
  if (from < 0 || what.length === 0 || s.length === 0) return -1
  for (let i = from; i <= s.length - what.length; i++) {
    let found = true
    for (let j = 0; j < what.length; j++) if (s[i + j] !== what[j]) found = false
    if (found) return i
  }
  return -1
}
const beginsWith = (s: Chars, p: Chars): boolean => {
  if (p.length > s.length) return false
  for (let i = 0; i < p.length; i++) if (s[i] !== p[i]) return false
  return true
}
const endsWith = (s: Chars, p: Chars): boolean => {
  if (p.length > s.length) return false
  for (let i = 0; i < p.length; i++) if (s[s.length - p.length + i] !== p[i]) return false
  return true
}

const reference = (grammar: 3 | 4, name: string, s: Chars, a: ReadonlyArray<Chars | number | boolean>): Chars => {
  switch (name) {
    case "left": {
      let p = a[0] as number
      if (grammar === 3) return p <= 0 ? [] : p >= s.length ? s : substr(s, 0, p)
      if (p < 0) p = s.length + p
      return p <= 0 ? [] : p >= s.length ? s : s.slice(0, p)
    }
    case "right": {
      let p = a[0] as number
      if (grammar === 3) return p >= s.length ? [] : p <= 0 ? s : substr(s, p, s.length - p)
      if (p < 0) p = s.length + p
      return p <= 0 ? [] : p >= s.length ? s : s.slice(s.length - p)
    }
    case "substr":
      return substr(s, a[0] as number, a.length > 1 ? (a[1] as number) : -1)
    case "strip_edges": {
      const left = a.length > 0 ? (a[0] as boolean) : true
      const right = a.length > 1 ? (a[1] as boolean) : true
      let beg = 0
      let end = s.length
      if (left) for (let i = 0; i < s.length && (s[i] as number) <= 32; i++) beg++
      if (right) for (let i = s.length - 1; i >= 0 && (s[i] as number) <= 32; i--) end--
      return beg === 0 && end === s.length ? s : substr(s, beg, end - beg)
    }
    case "lstrip": {
      const set = a[0] as Chars
      let beg = 0
      for (; beg < s.length; beg++) if (!set.includes(s[beg] as number)) break
      return beg === 0 ? s : substr(s, beg, s.length - beg)
    }
    case "rstrip": {
      const set = a[0] as Chars
      let end = s.length - 1
      for (; end >= 0; end--) if (!set.includes(s[end] as number)) break
      return end === s.length - 1 ? s : substr(s, 0, end + 1)
    }
    case "replace": {
      const key = a[0] as Chars
      const by = a[1] as Chars
      const out: Chars = []
      let from = 0
      let at = find(s, key, from)
      while (at >= 0) {
        out.push(...substr(s, from, at - from), ...by)
        from = at + key.length
        at = find(s, key, from)
      }
      return from === 0 ? s : [...out, ...substr(s, from, s.length - from)]
    }
    case "trim_prefix": {
      const p = a[0] as Chars
      return beginsWith(s, p) ? substr(s, p.length, s.length - p.length) : s
    }
    case "trim_suffix": {
      const p = a[0] as Chars
      return endsWith(s, p) ? substr(s, 0, s.length - p.length) : s
    }
    case "plus_file":
    case "path_join": {
      const f = a[0] as Chars
      if (s.length === 0) return f
      if (s[s.length - 1] === 47 || (f.length > 0 && f[0] === 47)) return [...s, ...f]
      return [...s, 47, ...f]
    }
    case "insert": {
      // 3.x: a negative position returns the string; beyond the end, the end; then before + inserted + after.
      // 4.x: the same, and an empty insertion returns the string.
      let at = a[0] as number
      const what = a[1] as Chars
      if (at < 0 || (grammar === 4 && what.length === 0)) return s
      if (at > s.length) at = s.length
      const pre = at > 0 ? substr(s, 0, at) : []
      const post = at < s.length ? substr(s, at, s.length - at) : []
      return [...pre, ...what, ...post]
    }
    case "get_basename": {
      // String::get_basename: find_last(".") unless it comes before the last "/" or "\\".
      let dot = -1
      let slash = -1
      s.forEach((c, i) => {
        if (c === 46) dot = i
        if (c === 47 || c === 92) slash = i
      })
      return dot < 0 || dot < slash ? s : s.slice(0, dot)
    }
    case "to_lower":
      return s.map((c) => (c >= 65 && c <= 90 ? c + 32 : c))
    case "to_upper":
      return s.map((c) => (c >= 97 && c <= 122 ? c - 32 : c))
    default:
      throw new Error(name)
  }
}

/** Characters that matter to the methods: separators, spaces, control characters, ASCII letters, a character above U+FFFF. */
const text = fc.string({ maxLength: 12, unit: fc.constantFrom("a", "b", "/", " ", "\t", "\u0001", "\u001f", "O", "S", ":", "é", "😀") })
const ascii = fc.string({ maxLength: 12, unit: fc.constantFrom("a", "B", "/", " ", "\u0001", "Z", "z", "1") })
const int = fc.integer({ min: -15, max: 15 })
/** Paths with dots and both separators, for get_basename. */
const pathy = fc.string({ maxLength: 12, unit: fc.constantFrom("a", ".", "/", "\\", "x", "😀") })

const ARGS: Readonly<Record<string, fc.Arbitrary<ReadonlyArray<string | number | boolean>>>> = {
  left: fc.tuple(int),
  right: fc.tuple(int),
  substr: fc.oneof(fc.tuple(int), fc.tuple(int, int)),
  strip_edges: fc.oneof(fc.constant([]), fc.tuple(fc.boolean()), fc.tuple(fc.boolean(), fc.boolean())),
  lstrip: fc.tuple(text),
  rstrip: fc.tuple(text),
  replace: fc.tuple(text, text),
  trim_prefix: fc.tuple(text),
  trim_suffix: fc.tuple(text),
  plus_file: fc.tuple(text),
  path_join: fc.tuple(text),
  insert: fc.tuple(int, text),
  to_lower: fc.constant([]),
  to_upper: fc.constant([]),
  get_basename: fc.constant([]),
}

const asArg = (a: string | number | boolean): FoldArg => (typeof a === "string" ? { s: a } : typeof a === "number" ? { n: a, float: false } : { b: a })

describe("String methods fold as the engine computes them", () => {
  for (const grammar of [3, 4] as const) {
    for (const name of FOLDED_METHODS[grammar]) {
      it(`Godot ${grammar}: ${name}`, () => {
        const arb = ARGS[name]
        if (arb === undefined) throw new Error(`no arguments for ${name}`)
        fc.assert(
          fc.property(name === "to_lower" || name === "to_upper" ? ascii : name === "get_basename" ? pathy : text, arb, (s, args) => {
            const folded = foldStringMethod(grammar, name, s, args.map(asArg))
            const wide = [s, ...args].some((x) => typeof x === "string" && [...x].some((c) => (c.codePointAt(0) as number) > 0xffff))
            // Godot 3 keeps a character above U+FFFF as one character or two depending on the platform: not folded.
            if (grammar === 3 && wide) expect(folded).toBeNull()
            else expect(folded).toBe(fromChars(reference(grammar, name, toChars(s), args.map((x) => (typeof x === "string" ? toChars(x) : x)))))
          }),
          { numRuns: 300 },
        )
      })
    }
  }

  it("the red team's readings: Godot 3 right(pos) is the part from pos, strip_edges strips every character up to a space, an empty path joined is the other part", () => {
    expect(foldStringMethod(3, "right", "abcOS", [{ n: 3, float: false }])).toBe("OS")
    expect(foldStringMethod(4, "right", "abcOS", [{ n: 2, float: false }])).toBe("OS")
    expect(foldStringMethod(3, "right", "xxuser://evil.gd", [{ n: 2, float: false }])).toBe("user://evil.gd")
    expect(foldStringMethod(3, "strip_edges", "\u0001execute", [])).toBe("execute")
    expect(foldStringMethod(3, "plus_file", "", [{ s: "OS" }])).toBe("OS")
  })

  it("anything not implemented exactly is not constant: other methods, non-ASCII case mapping, wrong argument types or counts", () => {
    expect(foldStringMethod(3, "capitalize", "os", [])).toBeNull()
    expect(foldStringMethod(4, "plus_file", "a", [{ s: "b" }])).toBeNull()
    expect(foldStringMethod(3, "path_join", "a", [{ s: "b" }])).toBeNull()
    expect(foldStringMethod(4, "to_upper", "ß", [])).toBeNull()
    expect(foldStringMethod(3, "right", "abc", [{ s: "1" }])).toBeNull()
    expect(foldStringMethod(3, "right", "abc", [{ n: 1.5, float: true }])).toBeNull()
    expect(foldStringMethod(3, "right", "abc", [{ n: 1, float: false }, { n: 1, float: false }])).toBeNull()
  })

  it("% formatting: %s %d %c %%, str() of each grammar, errors and flags not folded", () => {
    expect(formatString(3, "%s%s", [{ s: "O" }, { s: "S" }])).toBe("OS")
    expect(formatString(3, "%s-%d", [{ b: true }, { n: 7.9, float: true }])).toBe("True-7")
    expect(formatString(4, "%s", [{ b: true }])).toBe("true")
    expect(formatString(3, "%c%c", [{ n: 79, float: false }, { s: "S" }])).toBe("OS")
    expect(formatString(3, "%c", [{ n: 300, float: false }])).toBeNull()
    expect(formatString(4, "%c", [{ n: 300, float: false }])).toBe("Ĭ")
    expect(formatString(3, "%5s", [{ s: "x" }])).toBeNull()
    expect(formatString(3, "%s", [{ n: 1.5, float: true }])).toBeNull()
    expect(formatString(3, "%s", [{ s: "a" }, { s: "b" }])).toBeNull()
    expect(formatString(3, "100%%", [])).toBe("100%")
  })
})
