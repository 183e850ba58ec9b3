import { type ByteCursor, decodeUtf8 } from "../io/ByteCursor.ts"
import { strictUtf8Problem } from "../text/godotUtf8.ts"
import { MalformedData } from "../io/errors.ts"

// Godot's binary resource variant encoding (a u32 tag, then the payload), read or skipped.
// Only the shapes the checks need are materialised; everything else is skipped by size, which
// costs no reads at all for large packed arrays.

export interface VariantContext {
  /** 4, or 8 in double-precision builds. */
  readonly realSize: number
  readonly colorComponentSize: number
  /** Files before format 3 store one extra NodePath subname. */
  readonly formatVersion: number
  readonly strings: ReadonlyArray<string>
  /** String values as the engine that wrote the resource decodes them (godotUtf8.ts); the lenient decoder when absent. */
  readonly decode?: (bytes: Uint8Array) => string
  /** String values whose bytes were not strict UTF-8 (what the engine decoded from them). */
  readonly notStrict?: Set<string>
  /**
   * Every inline external reference read (OBJECT_EXTERNAL_RESOURCE: a type and a path, materialised or
   * skipped): the engine loads each as it reads the value (core/io/resource_format_binary.cpp, parse_variant).
   */
  readonly inlineExternals?: Array<{ readonly type: string; readonly path: string }>
  /** Sees every string value read, materialised or skipped (BBCode a RichTextLabel or translation holds: bbcode.ts). */
  readonly stringValues?: (value: string) => void
}

export type ObjectRef =
  | { readonly _tag: "Empty" }
  | { readonly _tag: "Internal"; readonly index: number }
  | { readonly _tag: "External"; readonly index: number }
  | { readonly _tag: "ExternalPath"; readonly type: string; readonly path: string }

export type Value =
  | null
  | boolean
  | number
  | string
  | ObjectRef
  | ReadonlyArray<string>
  | Int32Array
  | Uint8Array
  | ReadonlyArray<Value>
  | ReadonlyMap<Value, Value>
  | typeof SKIPPED

/** Stands for a value that was skipped rather than materialised. */
export const SKIPPED: unique symbol = Symbol("skipped")

const MAX_DEPTH = 64

/** What decodes the strings of a resource: the header's tables and names as well as its values. */
export type StringContext = Pick<VariantContext, "decode" | "notStrict">

export const readUnicodeString = async (c: ByteCursor, ctx?: StringContext): Promise<string> => {
  const length = await c.u32()
  if (length === 0) return ""
  return decodeStored(await c.bytes(length), ctx)
}

/**
 * Stored string bytes as the engine reads them (get_unicode_string and _get_string of ResourceLoaderBinary:
 * String::parse_utf8 of a C string, 3.x and 4.x); the lenient decoder without a context.
 */
const decodeStored = (bytes: Uint8Array, ctx?: StringContext): string => {
  if (ctx?.decode === undefined) return decodeUtf8(bytes).replace(/\0+$/, "")
  // The engine stops at the first NUL (the writer ends every string with one).
  const end = bytes.indexOf(0)
  const text = bytes.subarray(0, end < 0 ? bytes.length : end)
  const value = ctx.decode(text)
  if (ctx.notStrict !== undefined && (end >= 0 && bytes.subarray(end).some((b) => b !== 0) || strictUtf8Problem(text) !== null)) ctx.notStrict.add(value)
  return value
}

/** A property name or NodePath part: an index into the string table, or (bit 31) an inline string. */
export const readStringRef = async (c: ByteCursor, ctx: VariantContext): Promise<string> => {
  const id = await c.u32()
  if (id & 0x80000000) return decodeStored(await c.bytes(id & 0x7fffffff), ctx)
  const s = ctx.strings[id]
  if (s === undefined) throw new MalformedData(`string index ${id} outside a table of ${ctx.strings.length}`)
  return s
}

const boundedCount = (c: ByteCursor, count: number, minBytesEach: number, what: string): number => {
  if (count * minBytesEach > c.remaining) {
    throw new MalformedData(`${what} of ${count} items cannot fit in the ${c.remaining} bytes left`)
  }
  return count
}

const skipPacked = async (c: ByteCursor, elementBytes: number): Promise<void> => {
  const length = await c.u32()
  boundedCount(c, length, elementBytes, "packed array")
  c.skip(length * elementBytes)
}

/**
 * Reads one variant. Containers nested deeper than `materializeDepth` are skipped, so callers
 * choose how much structure they keep (the scene's `_bundled` dictionary needs two levels).
 */
export const readVariant = async (c: ByteCursor, ctx: VariantContext, materializeDepth = 0, depth = 0): Promise<Value> => {
  if (depth > MAX_DEPTH) throw new MalformedData(`variants nested deeper than ${MAX_DEPTH}`)
  const keep = depth <= materializeDepth
  const r = ctx.realSize
  const tag = await c.u32()
  switch (tag) {
    case 1: // NIL
      return null
    case 2: // BOOL
      return (await c.u32()) !== 0
    case 3: // INT
      return (await c.u32()) | 0
    case 40: // INT64
      return await c.u64()
    case 4: // FLOAT (real)
      c.skip(r)
      return SKIPPED
    case 41: // DOUBLE
      c.skip(8)
      return SKIPPED
    case 5: // STRING
    case 44: { // STRING_NAME
      const value = await readUnicodeString(c, ctx)
      ctx.stringValues?.(value)
      return value
    }
    case 10: case 13: case 14: case 11: case 12: case 50: case 15: case 16: case 17: case 18: case 52: {
      const reals: Record<number, number> = { 10: 2, 11: 4, 12: 3, 13: 4, 14: 4, 15: 6, 16: 9, 17: 12, 18: 6, 50: 4, 52: 16 }
      c.skip((reals[tag] ?? 0) * r)
      return SKIPPED
    }
    case 45: c.skip(8); return SKIPPED // VECTOR2I
    case 46: c.skip(16); return SKIPPED // RECT2I
    case 47: c.skip(12); return SKIPPED // VECTOR3I
    case 51: c.skip(16); return SKIPPED // VECTOR4I
    case 20: c.skip(4 * ctx.colorComponentSize); return SKIPPED // COLOR
    case 23: c.skip(4); return SKIPPED // RID
    case 42: case 43: return SKIPPED // CALLABLE, SIGNAL: stored empty
    case 22: { // NODE_PATH: names, then subnames (the property path); kept as text, `Node/Child:prop:sub`
      const names = await c.u16()
      const flags = await c.u16()
      let subnames = flags & 0x7fff
      if (ctx.formatVersion < 3) subnames += 1
      const parts: Array<string> = []
      for (let i = 0; i < names + subnames; i++) parts.push(await readStringRef(c, ctx))
      const absolute = flags & 0x8000 ? "/" : ""
      const path = parts.slice(0, names).join("/")
      // The engine's String of a NodePath (a String property accepts a NodePath: its BBCode is shown like a string's).
      ctx.stringValues?.(`${absolute}${path}${parts.slice(names).map((p) => `:${p}`).join("")}`)
      // Depth -1 (scalars and strings only) keeps it too: a NodePath is as much a name as a string.
      if (!keep && materializeDepth >= 0) return SKIPPED
      const sub = parts.slice(names).filter((p) => p !== "")
      return `${absolute}${path}${sub.map((p) => `:${p}`).join("")}`
    }
    case 24: { // OBJECT
      const kind = await c.u32()
      if (kind === 0) return { _tag: "Empty" }
      if (kind === 1) {
        const ref = { _tag: "ExternalPath" as const, type: await readUnicodeString(c, ctx), path: await readUnicodeString(c, ctx) }
        ctx.inlineExternals?.push({ type: ref.type, path: ref.path })
        return ref
      }
      if (kind === 2) return { _tag: "Internal", index: await c.u32() }
      if (kind === 3) return { _tag: "External", index: await c.u32() }
      throw new MalformedData(`unknown object encoding ${kind}`)
    }
    case 26: { // DICTIONARY
      const count = boundedCount(c, (await c.u32()) & 0x7fffffff, 8, "dictionary")
      const map = keep ? new Map<Value, Value>() : null
      for (let i = 0; i < count; i++) {
        const key = await readVariant(c, ctx, materializeDepth, depth + 1)
        const value = await readVariant(c, ctx, materializeDepth, depth + 1)
        map?.set(key, value)
      }
      return map ?? SKIPPED
    }
    case 30: { // ARRAY
      const count = boundedCount(c, (await c.u32()) & 0x7fffffff, 4, "array")
      const items: Array<Value> | null = keep ? [] : null
      for (let i = 0; i < count; i++) {
        const value = await readVariant(c, ctx, materializeDepth, depth + 1)
        items?.push(value)
      }
      return items ?? SKIPPED
    }
    case 31: { // PACKED_BYTE_ARRAY, padded to 4
      const length = boundedCount(c, await c.u32(), 1, "byte array")
      const padding = (4 - (length % 4)) % 4
      if (!keep || materializeDepth < 0) {
        c.skip(length + padding)
        return SKIPPED
      }
      const bytes = (await c.bytes(length)).slice()
      c.skip(padding)
      return bytes
    }
    case 32: { // PACKED_INT32_ARRAY
      if (!keep) return skipPacked(c, 4).then(() => SKIPPED)
      const length = boundedCount(c, await c.u32(), 4, "int array")
      const bytes = await c.bytes(length * 4)
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      const ints = new Int32Array(length)
      for (let i = 0; i < length; i++) ints[i] = view.getInt32(i * 4, c.littleEndian)
      return ints
    }
    case 48: case 49: await skipPacked(c, 8); return SKIPPED // PACKED_INT64 / FLOAT64
    case 33: await skipPacked(c, 4); return SKIPPED // PACKED_FLOAT32
    case 34: { // PACKED_STRING_ARRAY
      const length = boundedCount(c, await c.u32(), 4, "string array")
      const strings: Array<string> = []
      for (let i = 0; i < length; i++) {
        const s = await readUnicodeString(c, ctx)
        ctx.stringValues?.(s)
        if (keep) strings.push(s)
      }
      return keep ? strings : SKIPPED
    }
    case 37: await skipPacked(c, 2 * r); return SKIPPED // PACKED_VECTOR2_ARRAY
    case 35: await skipPacked(c, 3 * r); return SKIPPED // PACKED_VECTOR3_ARRAY
    case 53: await skipPacked(c, 4 * r); return SKIPPED // PACKED_VECTOR4_ARRAY
    case 36: await skipPacked(c, 4 * ctx.colorComponentSize); return SKIPPED // PACKED_COLOR_ARRAY
    case 21: { // IMAGE (Godot 3 and older)
      const encoding = await c.u32()
      if (encoding === 0) return SKIPPED
      if (encoding === 1) c.skip(16)
      const length = boundedCount(c, await c.u32(), 1, "image data")
      c.skip(length + ((4 - (length % 4)) % 4))
      return SKIPPED
    }
    default:
      throw new MalformedData(`unknown variant type ${tag} at offset ${c.position - 4}`)
  }
}
