// What a value track makes of string keys. Variant::interpolate of 3.x and 4.x (core/variant_op.cpp,
// core/variant/variant.cpp, the "typewriter" case) blends two Strings a and b at c into a string of length
// csize = int(len(a) + (len(b) - len(a)) * c): its first csize / 2 characters are a's (else b's, else a space),
// the rest b's (else a's, else a space). So keys that hold no tag can splice one: "… [im…" and "…g]user://x[/img]".
// A continuous (update 0) or capture (update 3 in 3.x, 2 in 4.x) track blends adjacent keys (and the last with the first when it
// loops), at any c in [0, 1]: every csize between the two lengths is reached. A capture track first blends the
// node's current value, which a script may have set, into its first key (the second when the first is at time 0):
// the scanner does not know that value, so every tail of those keys is judged after every tag that opens a load.

/** The engine's blend of two strings (Variant::interpolate, case STRING). */
export const interpolateString = (a: string, b: string, c: number): string => spliceAt(a, b, Math.trunc(a.length + (b.length - a.length) * c))

/** The string of length `size` the engine builds from `a` and `b`. */
export const spliceAt = (a: string, b: string, size: number): string => {
  if (size <= 0) return ""
  const split = Math.floor(size / 2)
  const pad = (first: string, second: string, from: number, to: number): string => {
    let out = first.slice(from, to)
    if (out.length < to - from) out += second.slice(from + out.length, to)
    return out.padEnd(to - from, " ")
  }
  return pad(a, b, 0, split) + pad(b, a, split, size)
}

/** Largest number of characters of splices judged one by one for a pair of keys; above it the pair is built at run time. */
export const MAX_SPLICE_CHARS = 1 << 20

/** Every string the engine can build between `a` and `b` (both orders), or null when there are more characters than MAX_SPLICE_CHARS. */
export const splicesBetween = (a: string, b: string): ReadonlyArray<string> | null => {
  // A splice holds only characters of the keys and spaces: without a "[" it opens no tag.
  if (!a.includes("[") && !b.includes("[")) return []
  const low = Math.min(a.length, b.length)
  const high = Math.max(a.length, b.length)
  if ((high - low + 1) * high * 2 > MAX_SPLICE_CHARS) return null
  const out = new Set<string>()
  for (let size = low; size <= high; size++) {
    out.add(spliceAt(a, b, size))
    out.add(spliceAt(b, a, size))
  }
  out.delete(a)
  out.delete(b)
  return [...out]
}

/** Tags that open a load, so that a captured value ending in one of them meets a key's tail. */
const OPENERS = ["[img]", "[img=", "[font=", "[font name=", "[font n=", "[dropcap font=", "[dropcap f="]

/** A key's tails after any opening tag: what a capture from a value the scene does not fix can give the engine. */
export const captureTails = (key: string): ReadonlyArray<string> | null => {
  if (key.length * OPENERS.length * key.length > MAX_SPLICE_CHARS) return null
  const out: Array<string> = []
  for (let k = 0; k < key.length; k++) for (const opener of OPENERS) out.push(opener + key.slice(k))
  return out
}

/** Characters of splices one resource may have judged, over all its tracks (a scene of many long keys stays cheap). */
export interface SpliceBudget {
  left: number
}

export const newSpliceBudget = (): SpliceBudget => ({ left: 1 << 24 })

export interface TrackStrings {
  /** Strings the engine can build between the keys, to be judged like strings of the resource. */
  readonly splices: ReadonlyArray<string>
  /** Pairs of keys with too many splices to judge: BBCode built at run time. */
  readonly unjudged: number
}

/**
 * The strings a value track builds from its keys: `update` is the track's update mode (missing: continuous; any
 * mode but discrete, 1, is judged, a mode other than 0 as capture),
 * `keys` its values (non-strings as null). A capture track's captured value is unknown (a script may set it).
 */
export const trackStrings = (update: number | null, keys: ReadonlyArray<string | null>, budget: SpliceBudget = newSpliceBudget()): TrackStrings => {
  const mode = update ?? 0
  if (mode === 1) return { splices: [], unjudged: 0 }
  const splices: Array<string> = []
  let unjudged = 0
  const take = (found: ReadonlyArray<string> | null): void => {
    const size = found?.reduce((n, s) => n + s.length, 0) ?? 0
    if (found === null || size > budget.left) unjudged++
    else {
      budget.left -= size
      splices.push(...found)
    }
  }
  const pair = (a: string | null, b: string | null): void => {
    if (a !== null && b !== null) take(splicesBetween(a, b))
  }
  for (let i = 0; i + 1 < keys.length; i++) pair(keys[i] ?? null, keys[i + 1] ?? null)
  if (keys.length > 2) pair(keys[keys.length - 1] ?? null, keys[0] ?? null)
  // Capture is 3 in 3.x and 2 in 4.x (where 3.x's trigger, 2, is gone): both are judged as capture.
  if (mode !== 0) {
    for (const key of keys.slice(0, 2)) {
      if (key !== null) take(captureTails(key))
    }
  }
  return { splices, unjudged }
}
