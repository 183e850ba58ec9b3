import type { ClassRef } from "./packModel.ts"

// What the analysis knows about the value of an expression: constant strings (possibly several),
// other constants, a dangerous engine object, an instance of an engine class, an instance or the
// script of a class the pack defines, or nothing. `external` marks data read at run time (a file,
// the command line), `prefix` the known start of a string built at run time.

export type Val =
  | { readonly t: "str"; readonly values: ReadonlyArray<string> }
  | { readonly t: "lit"; readonly value?: boolean | number | null }
  | { readonly t: "guard"; readonly name: string }
  | { readonly t: "inst"; readonly cls: string }
  | { readonly t: "own"; readonly ref: ClassRef }
  | { readonly t: "script"; readonly ref: ClassRef }
  | { readonly t: "unknown"; readonly external?: true; readonly prefix?: string }

export const UNKNOWN: Val = { t: "unknown" }
export const EXTERNAL: Val = { t: "unknown", external: true }
export const LIT: Val = { t: "lit" }

/** At most this many alternatives of a string are followed; more is "not constant". */
export const MAX_ALTERNATIVES = 16

/**
 * Folded strings longer than this are no method, class or path name; only their start is kept (a
 * long chain of `+` would otherwise cost quadratic time).
 */
export const MAX_FOLDED_LENGTH = 4096

export const strs = (values: ReadonlyArray<string>): Val => {
  if (values.length > MAX_ALTERNATIVES) return UNKNOWN
  const long = values.find((v) => v.length > MAX_FOLDED_LENGTH)
  if (long !== undefined) return values.length === 1 ? { t: "unknown", prefix: long.slice(0, MAX_FOLDED_LENGTH) } : UNKNOWN
  return { t: "str", values: values.length === 1 ? values : [...new Set(values)] }
}

export const isString = (v: Val): v is Extract<Val, { t: "str" }> => v.t === "str"

export const isExternal = (v: Val): boolean => v.t === "unknown" && v.external === true

const sameRef = (a: ClassRef, b: ClassRef): boolean => a.script === b.script && a.inner.join(".") === b.inner.join(".")

/** The value of a variable assigned `a` in one place and `b` in another. */
export const join = (a: Val, b: Val): Val => {
  if (a.t === "str" && b.t === "str") return strs([...a.values, ...b.values])
  if (a.t === "lit" && b.t === "lit") return a.value === b.value ? a : LIT
  if (a.t === "guard" && b.t === "guard" && a.name === b.name) return a
  if (a.t === "inst" && b.t === "inst" && a.cls === b.cls) return a
  if ((a.t === "own" || a.t === "script") && a.t === b.t && sameRef(a.ref, b.ref)) return a
  return isExternal(a) || isExternal(b) ? EXTERNAL : UNKNOWN
}

/** A value built from parts: external when any part is. */
export const derived = (...parts: ReadonlyArray<Val>): Val => (parts.some(isExternal) ? EXTERNAL : UNKNOWN)
