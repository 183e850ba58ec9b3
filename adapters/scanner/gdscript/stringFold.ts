import type { Val } from "./values.ts"

// Constant folding of string methods and `%` formatting, as the engine's String does them.

export const STRING_METHODS: ReadonlySet<string> = new Set(["to_lower", "to_upper", "strip_edges", "capitalize", "to_snake_case", "to_camel_case", "to_pascal_case", "lstrip", "rstrip", "dedent"])
export const STRING_METHODS_WITH_ARGUMENTS: ReadonlySet<string> = new Set(["replace", "trim_prefix", "trim_suffix", "plus_file", "path_join", "substr", "left", "right"])

/** The result of a string method without arguments, or null for one not folded here (the value then counts as not constant). */
export const applyStringMethod = (name: string, v: string): string | null => {
  switch (name) {
    case "to_lower":
      return v.toLowerCase()
    case "to_upper":
      return v.toUpperCase()
    case "strip_edges":
      return v.trim()
    case "lstrip":
      return v.trimStart()
    case "rstrip":
      return v.trimEnd()
    default:
      return null
  }
}

export const applyStringMethod2 = (name: string, v: string, args: ReadonlyArray<Val>): string | null => {
  const s = (i: number): string | null => {
    const a = args[i]
    return a?.t === "str" && a.values.length === 1 ? (a.values[0] ?? null) : null
  }
  const num = (i: number): number | null => {
    const a = args[i]
    return a?.t === "lit" && typeof a.value === "number" ? a.value : null
  }
  switch (name) {
    case "replace": {
      const from = s(0)
      const to = s(1)
      return from === null || to === null || from === "" ? null : v.split(from).join(to)
    }
    case "trim_prefix": {
      const p = s(0)
      return p === null ? null : v.startsWith(p) ? v.slice(p.length) : v
    }
    case "trim_suffix": {
      const p = s(0)
      return p === null ? null : v.endsWith(p) && p !== "" ? v.slice(0, -p.length) : v
    }
    case "plus_file":
    case "path_join": {
      const p = s(0)
      return p === null ? null : `${v.replace(/\/$/, "")}/${p}`
    }
    case "substr": {
      const from = num(0)
      const len = args.length > 1 ? num(1) : -1
      return from === null || len === null ? null : len < 0 ? v.slice(from) : v.slice(from, from + len)
    }
    case "left": {
      const n = num(0)
      return n === null ? null : n < 0 ? v.slice(0, n) : v.slice(0, n)
    }
    case "right": {
      const n = num(0)
      return n === null ? null : n < 0 ? v.slice(-n) : v.slice(Math.max(0, v.length - n))
    }
    default:
      return null
  }
}

/** `"%s%s" % [a, b]` with constant arguments; null when a placeholder cannot be filled. */
export const formatString = (format: string, args: ReadonlyArray<Val>): string | null => {
  let i = 0
  let out = ""
  for (let k = 0; k < format.length; k++) {
    const ch = format[k]
    if (ch !== "%") {
      out += ch
      continue
    }
    const next = format[k + 1]
    k += 1
    if (next === "%") {
      out += "%"
      continue
    }
    const a = args[i++]
    if (next === "s" && a?.t === "str" && a.values.length === 1) out += a.values[0]
    else if (next === "s" && a?.t === "lit") out += String(a.value)
    else if (next === "c" && a?.t === "lit" && typeof a.value === "number") out += String.fromCodePoint(a.value)
    else if (next === "c" && a?.t === "str" && a.values.length === 1) out += a.values[0]?.[0] ?? ""
    else if (next === "d" && a?.t === "lit" && typeof a.value === "number") out += String(Math.trunc(a.value))
    else return null
  }
  return i === args.length || args.length === 1 ? out : null
}

