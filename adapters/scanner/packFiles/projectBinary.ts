// `project.binary` (ECFG) back to the text a creator knows from `project.godot`. The file is a count, then per setting
// a key and a value in the engine's variant encoding (core/io/marshalls.cpp, decode_variant); the text form is the one
// core/config/project_settings.cpp writes: top-level keys, then one `[section]` per key prefix before the first '/'.
// Godot 3 (pack format 1) and Godot 4 number the variant types differently. Every string (keys, values, class and
// property names, node path parts) is decoded as that engine decodes it (String::parse_utf8: godotUtf8.ts), so an
// overlong spelling of `autoload/…` is the setting the engine sees; strings that are not strict UTF-8 are reported.

import { decodeAsEngine, strictUtf8Problem } from "../text/godotUtf8.ts"

class Reader {
  readonly #view: DataView
  readonly #bytes: Uint8Array
  readonly #godot: 3 | 4
  at = 0
  /** Whether a string read so far was not strict UTF-8 (or held a NUL before its end). */
  notStrict = false
  constructor(bytes: Uint8Array, godot: 3 | 4) {
    this.#bytes = bytes
    this.#godot = godot
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }
  #need(n: number): void {
    if (n < 0 || this.at + n > this.#bytes.length) throw new RangeError(`project.binary ends early at byte ${this.at}`)
  }
  u32(): number {
    this.#need(4)
    const v = this.#view.getUint32(this.at, true)
    this.at += 4
    return v
  }
  i32(): number {
    this.#need(4)
    const v = this.#view.getInt32(this.at, true)
    this.at += 4
    return v
  }
  i64(): string {
    this.#need(8)
    const v = this.#view.getBigInt64(this.at, true)
    this.at += 8
    return v.toString()
  }
  f32(): number {
    this.#need(4)
    const v = this.#view.getFloat32(this.at, true)
    this.at += 4
    return v
  }
  f64(): number {
    this.#need(8)
    const v = this.#view.getFloat64(this.at, true)
    this.at += 8
    return v
  }
  bytes(n: number): Uint8Array {
    this.#need(n)
    const out = this.#bytes.subarray(this.at, this.at + n)
    this.at += n
    return out
  }
  /** `length` bytes as the engine decodes them (up to the first NUL). */
  text(length: number): string {
    const bytes = this.bytes(length)
    const nul = bytes.indexOf(0)
    if (strictUtf8Problem(nul < 0 ? bytes : bytes.subarray(0, nul)) !== null || (nul >= 0 && bytes.subarray(nul).some((b) => b !== 0))) this.notStrict = true
    return decodeAsEngine(bytes, this.#godot)
  }
  /** A length-prefixed UTF-8 string padded to 4 bytes, the padding there too (marshalls.cpp _decode_string refuses it missing). */
  string(): string {
    const length = this.u32()
    const pad = (4 - (length % 4)) % 4
    this.#need(length + pad)
    const text = this.text(length)
    this.at += pad
    return text
  }
}

const FLAG_64 = 1 << 16
const MAX_DEPTH = 64

interface Syntax {
  readonly godot: 3 | 4
  readonly call: (name: string, args: ReadonlyArray<string>) => string
  readonly packed: (name: string) => string
}

const quote = (s: string): string => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t")}"`

const real = (v: number): string => {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf"
  const shortest = String(Number(v.toPrecision(9)))
  return /[.e]/.test(shortest) ? shortest : `${shortest}.0`
}

const decode = (r: Reader, syntax: Syntax, depth: number): string => {
  if (depth > MAX_DEPTH) throw new RangeError("project.binary nests values too deeply")
  const header = r.u32()
  const type = header & 0xff
  const wide = (header & FLAG_64) !== 0
  const float = (): string => real(wide ? r.f64() : r.f32())
  const floats = (name: string, n: number): string => syntax.call(name, Array.from({ length: n }, float))
  const ints = (name: string, n: number): string => syntax.call(name, Array.from({ length: n }, () => String(r.i32())))
  const list = <A>(each: () => A): Array<A> => {
    const count = r.u32() & 0x7fffffff
    if (count > 1_000_000) throw new RangeError("project.binary declares an impossible element count")
    return Array.from({ length: count }, each)
  }
  const value = (): string => decode(r, syntax, depth + 1)
  const dictionary = (): string => {
    const pairs = list(() => `${value()}: ${value()}`)
    return pairs.length === 0 ? "{}" : `{\n${pairs.join(",\n")}\n}`
  }
  const array = (): string => {
    const items = list(value)
    return syntax.godot === 3 ? `[ ${items.join(", ")} ]` : `[${items.join(", ")}]`
  }
  const object = (): string => {
    if (wide) return `Object(id ${r.i64()})`
    const className = r.string()
    if (className === "") return "null"
    const props = Array.from({ length: r.u32() }, () => `${quote(r.string())}:${value()}`)
    return `Object(${className},${props.join(",")})`
  }
  const nodePath = (): string => {
    const first = r.u32()
    // The old format (a length, then text) is refused by decode_variant: the engine drops the setting.
    if ((first & 0x80000000) === 0) throw new RangeError("project.binary holds a node path in the old format, which the engine refuses")
    const names = first & 0x7fffffff
    const declared = r.u32()
    const flags = r.u32()
    // The obsolete flag 2 (a property apart from the subpath) is one more subname to read (marshalls.cpp, NODE_PATH).
    const subnames = declared + (syntax.godot === 3 && (flags & 2) !== 0 ? 1 : 0)
    const parts = Array.from({ length: names }, () => r.string())
    const subs = Array.from({ length: subnames }, () => r.string())
    const path = `${flags & 1 ? "/" : ""}${parts.join("/")}${subs.map((s) => `:${s}`).join("")}`
    return syntax.call("NodePath", [quote(path)])
  }
  if (syntax.godot === 3) {
    switch (type) {
      case 0: return "null"
      case 1: return r.u32() !== 0 ? "true" : "false"
      case 2: return wide ? r.i64() : String(r.i32())
      case 3: return float()
      case 4: return quote(r.string())
      case 5: return floats("Vector2", 2)
      case 6: return floats("Rect2", 4)
      case 7: return floats("Vector3", 3)
      case 8: return floats("Transform2D", 6)
      case 9: return floats("Plane", 4)
      case 10: return floats("Quat", 4)
      case 11: return floats("AABB", 6)
      case 12: return floats("Basis", 9)
      case 13: return floats("Transform", 12)
      case 14: return floats("Color", 4)
      case 15: return nodePath()
      case 16: return "RID()"
      case 17: return object()
      case 18: return dictionary()
      case 19: return array()
      case 20: return packedBytes(r, syntax.packed("ByteArray"), syntax)
      case 21: return syntax.call(syntax.packed("IntArray"), list(() => String(r.i32())))
      case 22: return syntax.call(syntax.packed("RealArray"), list(() => real(r.f32())))
      case 23: return syntax.call(syntax.packed("StringArray"), list(() => quote(r.string())))
      case 24: return syntax.call(syntax.packed("Vector2Array"), list(() => [real(r.f32()), real(r.f32())].join(", ")))
      case 25: return syntax.call(syntax.packed("Vector3Array"), list(() => [real(r.f32()), real(r.f32()), real(r.f32())].join(", ")))
      case 26: return syntax.call(syntax.packed("ColorArray"), list(() => [real(r.f32()), real(r.f32()), real(r.f32()), real(r.f32())].join(", ")))
      default: throw new RangeError(`project.binary holds an unknown Godot 3 value type ${type}`)
    }
  }
  switch (type) {
    case 0: return "null"
    case 1: return r.u32() !== 0 ? "true" : "false"
    case 2: return wide ? r.i64() : String(r.i32())
    case 3: return float()
    case 4: return quote(r.string())
    case 5: return floats("Vector2", 2)
    case 6: return ints("Vector2i", 2)
    case 7: return floats("Rect2", 4)
    case 8: return ints("Rect2i", 4)
    case 9: return floats("Vector3", 3)
    case 10: return ints("Vector3i", 3)
    case 11: return floats("Transform2D", 6)
    case 12: return floats("Vector4", 4)
    case 13: return ints("Vector4i", 4)
    case 14: return floats("Plane", 4)
    case 15: return floats("Quaternion", 4)
    case 16: return floats("AABB", 6)
    case 17: return floats("Basis", 9)
    case 18: return floats("Transform3D", 12)
    case 19: return floats("Projection", 16)
    case 20: return floats("Color", 4)
    case 21: return `&${quote(r.string())}`
    case 22: return nodePath()
    case 23: return `RID(${r.i64()})`
    case 24: return object()
    case 25: return "Callable()"
    case 26: return `Signal(${quote(r.string())}, ${r.i64()})`
    case 27: {
      // Typed dictionaries (4.4+) name their key and value types before the entries.
      skipContainerType(r, (header >> 16) & 3)
      skipContainerType(r, (header >> 18) & 3)
      return dictionary()
    }
    case 28: {
      const typed = (header >> 16) & 3
      const typeName = typed === 0 ? null : skipContainerType(r, typed)
      const items = list(value)
      return typeName === null ? `[${items.join(", ")}]` : `Array[${typeName}]([${items.join(", ")}])`
    }
    case 29: return packedBytes(r, "PackedByteArray", syntax)
    case 30: return syntax.call("PackedInt32Array", list(() => String(r.i32())))
    case 31: return syntax.call("PackedInt64Array", list(() => r.i64()))
    case 32: return syntax.call("PackedFloat32Array", list(() => real(r.f32())))
    case 33: return syntax.call("PackedFloat64Array", list(() => real(r.f64())))
    case 34: return syntax.call("PackedStringArray", list(() => quote(r.string())))
    case 35: return syntax.call("PackedVector2Array", list(() => [real(r.f32()), real(r.f32())].join(", ")))
    case 36: return syntax.call("PackedVector3Array", list(() => [real(r.f32()), real(r.f32()), real(r.f32())].join(", ")))
    case 37: return syntax.call("PackedColorArray", list(() => [real(r.f32()), real(r.f32()), real(r.f32()), real(r.f32())].join(", ")))
    case 38: return syntax.call("PackedVector4Array", list(() => [real(r.f32()), real(r.f32()), real(r.f32()), real(r.f32())].join(", ")))
    default: throw new RangeError(`project.binary holds an unknown Godot 4 value type ${type}`)
  }
}

/** The element type a typed container names: a builtin type id, or a class or script name. */
const skipContainerType = (r: Reader, kind: number): string | null => {
  if (kind === 0) return null
  if (kind === 1) return `type ${r.u32()}`
  return r.string()
}

const packedBytes = (r: Reader, name: string, syntax: Syntax): string => {
  const count = r.u32()
  const bytes = r.bytes(count)
  r.at += (4 - (count % 4)) % 4
  return syntax.call(name, Array.from(bytes, String))
}

const SYNTAX: Record<3 | 4, Syntax> = {
  3: { godot: 3, call: (name, args) => (args.length === 0 ? `${name}(  )` : `${name}( ${args.join(", ")} )`), packed: (name) => `Pool${name}` },
  4: { godot: 4, call: (name, args) => `${name}(${args.join(", ")})`, packed: (name) => `Packed${name}` },
}

/** A setting as a line of the text, and whether its key or a string of its value was not strict UTF-8. */
interface SettingLine {
  readonly text: string
  readonly notStrict: boolean
}

export interface DecodedSettings {
  readonly text: string
  /** 1-based lines of `text` whose setting's bytes were not strict UTF-8 (the key or a string of the value). */
  readonly notStrictLines: ReadonlyArray<number>
}

/**
 * A key as the engine writes it (String::property_name_encode, core/ustring.cpp of 3.x): quoted, with `\` and `"`
 * escaped, when it holds `= " ; [ ]`, a character up to space or one past `~`; read back by configFile.ts exactly.
 */
const propertyName = (key: string): string => (/^[!\x23-\x3a<>-Z\\^-~]+$/.test(key) ? key : `"${key.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\r/g, "\\r")}"`)

/** A section name the `[section]` line gives back exactly. */
const SAFE_SECTION = /^[!\x23-\x3a<>-Z\\^-~]+$/

const ECFG = [0x45, 0x43, 0x46, 0x47] as const

/**
 * The settings as `project.godot` text with the lines of settings stored in bytes that are not strict UTF-8; null when
 * not ECFG. A key written twice or a value that cannot be decoded is a RangeError, unless `shown` (for a reviewer's
 * view of the file: each setting as stored, a value not decoded as a comment).
 */
export const readProjectBinary = (bytes: Uint8Array, godot: 3 | 4, shown = false): DecodedSettings | null => {
  if (bytes.length < 8 || ECFG.some((b, i) => bytes[i] !== b)) return null
  const r = new Reader(bytes, godot)
  r.at = 4
  const count = r.u32()
  const topLevel: Array<SettingLine> = []
  const sections = new Map<string, Array<SettingLine>>()
  const keys = new Set<string>()
  for (let i = 0; i < count; i++) {
    // The engine reads the key as a C string (core/project_settings.cpp, _load_settings_binary: parse_utf8).
    const key = r.text(r.u32())
    // The exporter writes each setting once (a map); a key written again, or a value the engine refuses (it skips it,
    // ERR_CONTINUE, keeping what an earlier one set), is refused: an eighty-first red team's second `autoload/Towers`
    // with a value the engine drops hid the first's script.
    if (keys.has(key) && !shown) throw new RangeError(`project.binary sets ${JSON.stringify(key)} twice`)
    keys.add(key)
    const valueBytes = r.bytes(r.u32())
    const values = new Reader(valueBytes, godot)
    let value: string
    try {
      value = decode(values, SYNTAX[godot], 0)
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      if (!shown) throw new RangeError(`project.binary's value of ${JSON.stringify(key)} cannot be decoded (${why})`)
      value = `; (not decoded: ${why})`
    }
    const notStrict = r.notStrict || values.notStrict
    r.notStrict = false
    const slash = key.indexOf("/")
    // A section name the text could not give back exactly stays in the key, at the top level.
    if (slash === -1 || !SAFE_SECTION.test(key.slice(0, slash)) || slash === key.length - 1) topLevel.push({ text: `${propertyName(key)}=${value}`, notStrict })
    else {
      const section = key.slice(0, slash)
      const lines = sections.get(section) ?? []
      lines.push({ text: `${propertyName(key.slice(slash + 1))}=${value}`, notStrict })
      sections.set(section, lines)
    }
  }
  const blank = { text: "", notStrict: false }
  const parts: ReadonlyArray<SettingLine> = [
    { text: "; Decoded by pckgate from the exported project.binary; the editor's comments and formatting are not in the pack.", notStrict: false },
    blank,
    ...topLevel,
    ...[...sections].flatMap(([section, lines]) => [blank, { text: `[${section}]`, notStrict: false }, blank, ...lines]),
  ]
  // A value spans several lines when it holds line breaks: count them to number the lines.
  const notStrictLines: Array<number> = []
  let line = 1
  for (const part of parts) {
    if (part.notStrict) notStrictLines.push(line)
    line += part.text.split("\n").length
  }
  return { text: `${parts.map((p) => p.text).join("\n")}\n`, notStrictLines }
}

/** The settings as `project.godot` text for a reviewer to read (every setting as stored), or null when the bytes are not an ECFG file. */
export const projectBinaryToText = (bytes: Uint8Array, godot: 3 | 4): string | null => readProjectBinary(bytes, godot, true)?.text ?? null
