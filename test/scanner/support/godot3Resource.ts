// Writes a Godot 3 binary resource (RSRC, format 3: core/io/resource_format_binary.cpp of 3.x) with internal
// resources whose properties are strings or object references: data no export writes (a GDScript whose
// `script/source` is an object), for attacks the engine runs.
import { ByteBuilder, utf8 } from "./bytes.ts"

/** A property value: a string, an internal resource (1-based, as `local://N`) or an external one (0-based). */
export type Godot3Value = { readonly str: string } | { readonly internal: number } | { readonly external: number }

export interface Godot3Internal {
  readonly type: string
  readonly props: ReadonlyArray<readonly [string, Godot3Value]>
}

const VARIANT_STRING = 5
const VARIANT_OBJECT = 24
const OBJECT_INTERNAL_RESOURCE = 2
const OBJECT_EXTERNAL_RESOURCE_INDEX = 3

const unicode = (b: ByteBuilder, s: string): ByteBuilder => {
  const bytes = utf8(s)
  return b.u32(bytes.length + 1).bytes(bytes).u8(0)
}

const u64 = (b: ByteBuilder, v: number): ByteBuilder => b.u32(v).u32(0)

/** The resource's bytes: its main resource is the last internal one (as the engine saves it). */
export const writeGodot3Resource = (mainType: string, externals: ReadonlyArray<{ readonly type: string; readonly path: string }>, internals: ReadonlyArray<Godot3Internal>): Uint8Array => {
  const names: Array<string> = []
  const nameIndex = (s: string): number => (names.includes(s) ? names.indexOf(s) : names.push(s) - 1)
  const bodies = internals.map((r) => {
    const b = unicode(new ByteBuilder(), r.type).u32(r.props.length)
    for (const [name, value] of r.props) {
      b.u32(nameIndex(name))
      if ("str" in value) unicode(b.u32(VARIANT_STRING), value.str)
      else if ("internal" in value) b.u32(VARIANT_OBJECT).u32(OBJECT_INTERNAL_RESOURCE).u32(value.internal)
      else b.u32(VARIANT_OBJECT).u32(OBJECT_EXTERNAL_RESOURCE_INDEX).u32(value.external)
    }
    return b.build()
  })
  const header = (offsets: ReadonlyArray<number>): Uint8Array => {
    // Magic, big-endian 0, 64-bit 0, engine 3.2, format 3; the main type; the import metadata offset; 14 reserved words.
    const h = unicode(new ByteBuilder().bytes(utf8("RSRC")).u32(0).u32(0).u32(3).u32(2).u32(3), mainType)
    u64(h, 0)
    for (let i = 0; i < 14; i++) h.u32(0)
    h.u32(names.length)
    for (const s of names) unicode(h, s)
    h.u32(externals.length)
    for (const e of externals) unicode(unicode(h, e.type), e.path)
    h.u32(internals.length)
    internals.forEach((_, i) => u64(unicode(h, `local://${i + 1}`), offsets[i] ?? 0))
    return h.build()
  }
  const start = header([]).length
  const offsets = bodies.map((_, i) => start + bodies.slice(0, i).reduce((n, b) => n + b.length, 0))
  return new ByteBuilder().bytes(header(offsets)).bytes(bodies.flatMap((b) => [...b])).bytes(utf8("RSRC")).build()
}
