import { type BinaryResource, type InternalResource, readProperties } from "./binaryResource.ts"
import codebook from "./smaz-codebook.json" with { type: "json" }
import { decodeAsEngine } from "../text/godotUtf8.ts"

// The strings of a compressed translation (3.x PHashTranslation, 4.x OptimizedTranslation: what a CSV
// translation imports to), read as core/translation.cpp and core/string/optimized_translation.cpp read them:
// `hash_table` indexes buckets in `bucket_table` (a size, a hash function, then per element the key's hash,
// the offset of its text in `strings`, the stored size and the text's size with its terminating zero).
// A text stored smaller than it is was compressed with smaz (thirdparty/misc/smaz.c): each byte below 254 stands for
// a string of its codebook (smaz-codebook.json, generated from that source by test/scanner/support/
// generateSmazCodebook.ts), 254 for the next byte as it is, 255 for a run of the next byte's value plus one bytes as
// they are. Such texts are decoded and judged as the stored ones are; one that does not decode to its recorded size
// is counted as unreadable (its `[`, which the codebook never holds, appears verbatim).

/** The classes whose strings are stored this way. */
export const COMPRESSED_TRANSLATIONS: ReadonlySet<string> = new Set(["PHashTranslation", "OptimizedTranslation"])

export interface TranslationTexts {
  /** Texts stored as they are. */
  readonly plain: ReadonlyArray<string>
  /** Compressed texts that do not decode and hold a `[` (possible BBCode the scanner cannot read in full). */
  readonly compressedWithTags: number
}

/** Whether smaz-compressed bytes hold a verbatim `[` (codebook bytes never stand for one). */
const compressedHasBracket = (bytes: Uint8Array): boolean => {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] ?? 0
    if (b === 254) {
      if (bytes[i + 1] === 0x5b) return true
      i += 2
    } else if (b === 255) {
      const length = (bytes[i + 1] ?? 0) + 1
      if (bytes.subarray(i + 2, i + 2 + length).includes(0x5b)) return true
      i += 2 + length
    } else i += 1
  }
  return false
}

const SMAZ: ReadonlyArray<Uint8Array> = (codebook as ReadonlyArray<string>).map((entry) => new TextEncoder().encode(entry))

/** The bytes smaz-compressed bytes stand for (smaz_decompress, which stops once `limit` bytes are out), or null when they run past their end first. */
export const smazDecoded = (bytes: Uint8Array, limit = Infinity): Uint8Array | null => {
  const out: Array<number> = []
  for (let i = 0; i < bytes.length && out.length < limit; ) {
    const b = bytes[i] ?? 0
    if (b === 254) {
      if (i + 1 >= bytes.length) return null
      out.push(bytes[i + 1] ?? 0)
      i += 2
    } else if (b === 255) {
      const length = (bytes[i + 1] ?? 0) + 1
      if (i + 2 + length > bytes.length) return null
      out.push(...bytes.subarray(i + 2, i + 2 + length))
      i += 2 + length
    } else {
      out.push(...(SMAZ[b] ?? []))
      i += 1
    }
  }
  return Uint8Array.from(out.slice(0, limit))
}

/**
 * A table as the engine's `_set` takes it: the pool it should be, or an Array of numbers (or bools) the Variant
 * converts to one item by item (a fifty-fourth red team's `hash_table` given as an Array); undefined when absent (no
 * texts), null for another form.
 */
const asTable = <T extends "int" | "byte">(value: unknown, kind: T): (T extends "int" ? Int32Array : Uint8Array) | null | undefined => {
  type Table = T extends "int" ? Int32Array : Uint8Array
  if (value === undefined) return undefined
  if (kind === "int" ? value instanceof Int32Array : value instanceof Uint8Array) return value as Table
  if (!Array.isArray(value) || !value.every((v) => typeof v === "number" || typeof v === "boolean")) return null
  const numbers = value.map((v: number | boolean) => Math.trunc(Number(v)))
  return (kind === "int" ? Int32Array.from(numbers) : Uint8Array.from(numbers, (n) => n & 0xff)) as Table
}

export const readTranslationTexts = async (resource: BinaryResource, internal: InternalResource): Promise<TranslationTexts> => {
  const props = await readProperties(resource, internal, (name) => (name === "hash_table" || name === "bucket_table" || name === "strings" ? 0 : null))
  const hashTable = asTable(props.get("hash_table"), "int")
  const buckets = asTable(props.get("bucket_table"), "int")
  const strings = asTable(props.get("strings"), "byte")
  // A table in a form the engine converts but the scanner does not (a pool of another type, text): unreadable.
  if (hashTable === null || buckets === null || strings === null) return { plain: [], compressedWithTags: 1 }
  if (hashTable === undefined || buckets === undefined || strings === undefined) return { plain: [], compressedWithTags: 0 }
  // Read as the engine reads it: up to the first zero, with Godot's own UTF-8 decoding (an overlong `[` is one: a
  // fifty-second red team's).
  const grammar = resource.engineMajor >= 4 ? 4 : 3
  const asText = (bytes: Uint8Array): string => {
    const end = bytes.indexOf(0)
    return decodeAsEngine(end < 0 ? bytes : bytes.subarray(0, end), grammar)
  }
  const plain: Array<string> = []
  let compressedWithTags = 0
  const seen = new Set<number>()
  for (const start of hashTable) {
    if (start < 0 || seen.has(start)) continue
    seen.add(start)
    const size = buckets[start] ?? 0
    for (let i = 0; i < size; i++) {
      const at = start + 2 + i * 4
      const offset = buckets[at + 1] ?? -1
      const stored = buckets[at + 2] ?? 0
      const length = buckets[at + 3] ?? 0
      // A text the engine would read past the end of `strings` (or from before it) cannot be read here: unreadable.
      if (offset < 0 || stored < 0 || length < 0 || offset >= strings.length || (stored === length && offset + length > strings.length)) {
        compressedWithTags += 1
        continue
      }
      // smaz_decompress stops once the recorded size is out, whatever size the compressed bytes claim (a fifty-second
      // red team's size past the end of `strings`).
      const bytes = strings.subarray(offset, Math.min(offset + stored, strings.length))
      const text = stored === length ? bytes : smazDecoded(bytes, length)
      if (text !== null) plain.push(asText(text))
      else if (compressedHasBracket(bytes) || bytes.some((b) => b >= 0xc0)) compressedWithTags += 1
    }
  }
  return { plain, compressedWithTags }
}
