// UTF-8 as the engine decodes it (String::parse_utf8, core/ustring.cpp in 3.x, core/string/ustring.cpp
// in 4.x), written from the behaviour of that function, so the scanner reads the text the engine runs:
// - both skip a leading byte-order mark and stop at the first NUL byte (scripts are decoded as C strings);
// - Godot 3 refuses input with a bad lead byte, a missing or bad continuation byte or a two-byte
//   overlong form, but accepts longer overlong forms its check misses (E0 80 A2 is `"`), surrogates
//   and five- and six-byte sequences; refused input leaves the string unchanged or half decoded (godot3Refusal);
// - Godot 4 never refuses: an invalid byte becomes U+FFFD and swallows the byte that broke the
//   sequence, overlong forms decode to what they spell (C0 A2 is `"` too), NUL, surrogates and values
//   above U+10FFFF become U+FFFD, and a sequence cut short at the end becomes a space.
// A benign exporter writes strict UTF-8 only: `strictUtf8Problem` says where input is not.

const BOM = [0xef, 0xbb, 0xbf] as const

/** Whether the bytes start with a UTF-8 byte-order mark. */
export const startsWithBom = (bytes: Uint8Array): boolean => bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2]

/** Where decoding starts (after a BOM) and ends (at the first NUL byte, or the end). */
const bounds = (bytes: Uint8Array): { readonly start: number; readonly end: number } => {
  const start = startsWithBom(bytes) ? 3 : 0
  const nul = bytes.indexOf(0, start)
  return { start, end: nul < 0 ? bytes.length : nul }
}

/** Bytes that follow a lead byte, or -1 for a byte that cannot start a sequence (continuation bytes, FE, FF). */
const followers = (lead: number): number => {
  if ((lead & 0x80) === 0) return 0
  if ((lead & 0xe0) === 0xc0) return 1
  if ((lead & 0xf0) === 0xe0) return 2
  if ((lead & 0xf8) === 0xf0) return 3
  if ((lead & 0xfc) === 0xf8) return 4
  if ((lead & 0xfe) === 0xfc) return 5
  return -1
}

const REPLACEMENT = 0xfffd

/** Code points to a string; values a JavaScript string cannot hold (above U+10FFFF) become U+FFFD. */
const toText = (points: ReadonlyArray<number>): string => {
  let out = ""
  for (let i = 0; i < points.length; i += 8192) {
    out += String.fromCodePoint(...points.slice(i, i + 8192).map((p) => (p > 0x10ffff ? REPLACEMENT : p)))
  }
  return out
}

/**
 * Whether Godot 3's first pass, which only counts the sequences (their lead bytes, a two-byte overlong form, a sequence
 * cut short at the end), accepts the bytes. Where it refuses, String::parse_utf8 returns before writing anything, so
 * the string keeps what it held (nothing, for a string made from the bytes); where it accepts and the decoding then
 * fails (a bad continuation byte, a three-byte overlong form), it has written what it decoded so far over the start of
 * the old characters, and the rest is what the buffer held: a string no reader can know (godot3Refusal).
 */
const godot3Counts = (bytes: Uint8Array): boolean => {
  const { start, end } = bounds(bytes)
  let pending = 0
  for (let i = start; i < end; i++) {
    if (pending > 0) {
      pending -= 1
      continue
    }
    const n = followers(bytes[i] as number)
    if (n < 0 || (n === 1 && ((bytes[i] as number) & 0x1e) === 0)) return false
    pending = n
  }
  return pending === 0
}

/**
 * How Godot 3 refuses bytes decodeGodot3Utf8 gives null for: `unchanged` (its first pass refuses them, the string keeps
 * what it held) or `half` (the decoding fails part-way and leaves a string half decoded: an eighty-seventh and an
 * eighty-eighth red team's).
 */
export const godot3Refusal = (bytes: Uint8Array): "unchanged" | "half" => (godot3Counts(bytes) ? "half" : "unchanged")

/** Godot 3's decoding, or null when the engine refuses the bytes (a script is then not loaded). */
export const decodeGodot3Utf8 = (bytes: Uint8Array): string | null => {
  const { start, end } = bounds(bytes)
  // First the sequence lengths, as the engine counts them before decoding.
  if (!godot3Counts(bytes)) return null
  const points: Array<number> = []
  for (let i = start; i < end; ) {
    const lead = bytes[i] as number
    const length = followers(lead) + 1
    if (length === 1) {
      points.push(lead)
      i += 1
      continue
    }
    let point = lead & (0xff >> (length + 1))
    for (let k = 1; k < length; k++) {
      const b = bytes[i + k] as number
      if ((b & 0xc0) !== 0x80) return null
      // The engine's overlong check looks at the third byte only, and only while nothing is decoded yet.
      if (point === 0 && k === 2 && (b & 0x7f) >> (7 - length) === 0) return null
      point = (point << 6) | (b & 0x3f)
    }
    points.push(point >>> 0)
    i += length
  }
  return toText(points)
}

/** Godot 4's decoding: always a string, with the replacements described above. */
export const decodeGodot4Utf8 = (bytes: Uint8Array): string => {
  const { start, end } = bounds(bytes)
  const points: Array<number> = []
  let pending = 0
  let point = 0
  for (let i = start; i < end; i++) {
    const b = bytes[i] as number
    if (pending === 0) {
      const n = followers(b)
      if (n === 0) points.push(b)
      else if (n < 0) points.push(REPLACEMENT)
      else {
        point = b & (0xff >> (n + 2))
        pending = n
      }
      continue
    }
    if (b < 0x80 || b > 0xbf) {
      points.push(REPLACEMENT)
      pending = 0
      continue
    }
    point = ((point << 6) | (b & 0x3f)) >>> 0
    pending -= 1
    if (pending === 0) points.push(point === 0 || (point & 0xfffff800) === 0xd800 || point > 0x10ffff ? REPLACEMENT : point)
  }
  if (pending > 0) points.push(0x20)
  return toText(points)
}

/** The text of a script or resource as the engine of `grammar` reads it (input Godot 3 refuses is read leniently: it never runs). */
export const decodeAsEngine = (bytes: Uint8Array, grammar: 3 | 4): string => (grammar === 3 ? (decodeGodot3Utf8(bytes) ?? decodeGodot4Utf8(bytes)) : decodeGodot4Utf8(bytes))

export interface EncodingProblem {
  /** Byte offset of the first offending byte. */
  readonly offset: number
  readonly what: string
}

const strict = new TextDecoder("utf-8", { fatal: true })

/** Null for strict UTF-8 without NUL bytes; otherwise the first offending byte and what is wrong with it. */
export const strictUtf8Problem = (bytes: Uint8Array): EncodingProblem | null => {
  const nul = bytes.indexOf(0)
  let valid = true
  try {
    strict.decode(bytes)
  } catch {
    valid = false
  }
  if (valid) return nul < 0 ? null : { offset: nul, what: "a NUL byte (the engine stops reading there)" }
  // Find the first bad sequence (before any NUL) by decoding growing prefixes at sequence boundaries.
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number
    if (b === 0) return { offset: i, what: "a NUL byte (the engine stops reading there)" }
    const n = followers(b)
    if (n < 0 || n > 3) return { offset: i, what: `byte 0x${b.toString(16)} that cannot start a UTF-8 sequence` }
    try {
      strict.decode(bytes.subarray(i, i + n + 1))
    } catch {
      return { offset: i, what: `an invalid or overlong UTF-8 sequence (${[...bytes.subarray(i, i + n + 1)].map((x) => x.toString(16).padStart(2, "0")).join(" ")})` }
    }
    i += n + 1
  }
  return nul < 0 ? null : { offset: nul, what: "a NUL byte (the engine stops reading there)" }
}

/** 1-based line and column (in UTF-16 units of the engine's text) of a byte offset. */
export const positionOfByte = (bytes: Uint8Array, offset: number): { readonly line: number; readonly column: number } => {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line += 1
      lineStart = i + 1
    }
  }
  return { line, column: new TextDecoder().decode(bytes.subarray(lineStart, offset)).length + 1 }
}

/**
 * strictUtf8Problem over a file read in chunks: the first problem with its line and column. A
 * sequence cut by a chunk boundary is carried over to the next chunk.
 */
export class StrictUtf8Watch {
  #problem: (EncodingProblem & { readonly line: number; readonly column: number }) | null = null
  #carry = new Uint8Array(0)
  #line = 1
  #lastLine = new Uint8Array(0)

  get problem(): (EncodingProblem & { readonly line: number; readonly column: number }) | null {
    return this.#problem
  }

  feed(chunk: Uint8Array): void {
    if (this.#problem !== null) return
    const bytes = this.#carry.length === 0 ? chunk : concat(this.#carry, chunk)
    // Up to the last complete sequence: a lead byte near the end may be waiting for its followers.
    let end = bytes.length
    for (let k = Math.max(0, bytes.length - 3); k < bytes.length; k++) {
      const n = followers(bytes[k] as number)
      if (n > 0 && k + n >= bytes.length) end = k
    }
    this.#check(bytes.subarray(0, end))
    this.#carry = bytes.slice(end)
  }

  finish(): void {
    if (this.#problem === null && this.#carry.length > 0) this.#check(this.#carry)
    this.#carry = new Uint8Array(0)
  }

  #check(bytes: Uint8Array): void {
    const problem = strictUtf8Problem(bytes)
    if (problem !== null) {
      const within = positionOfByte(concat(this.#lastLine, bytes), this.#lastLine.length + problem.offset)
      this.#problem = { ...problem, line: this.#line + within.line - 1, column: within.column }
      return
    }
    let lines = 0
    let lastBreak = -1
    for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) {
      lines += 1
      lastBreak = i
    }
    this.#line += lines
    // The start of the current line is kept (bounded) to give a column.
    this.#lastLine = lastBreak >= 0 ? bytes.slice(lastBreak + 1).slice(-4096) : concat(this.#lastLine, bytes).slice(-4096)
  }
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}
