// Writes Godot 4 binary scenes (RSRC, optionally RSCC-compressed) with built-in scripts, from the
// byte tables of the format reference §6 and the `_bundled` layout of packed_scene.cpp.
import { zstdCompressSync } from "node:zlib"
import { ByteBuilder, utf8 } from "./bytes.ts"

const unicode = (b: ByteBuilder, s: string): ByteBuilder => {
  const bytes = utf8(s)
  return b.u32(bytes.length + 1).bytes(bytes).u8(0)
}

export interface SceneNode {
  readonly name: string
  readonly type: string
  /** Index of the parent node, -1 for the root. */
  readonly parent: number
  /** `{ builtIn: 0 }` names the n-th built-in script; `{ external: "res://x.gd" }` a script file. */
  readonly script?: { readonly builtIn: number } | { readonly external: string }
  /** A placeholder for this path (a string variant), or for a value that is not a string (an int variant). */
  readonly placeholder?: string | number
  /** A property holding an inline external reference (OBJECT_EXTERNAL_RESOURCE: type and path written in place). */
  readonly inline?: { readonly property: string; readonly type: string; readonly path: string }
}

/**
 * A value a connection binds or a method key passes: a string, an array of strings, or an object reference
 * (an external resource by path, added to the external table; an internal one by its index among the internals).
 */
export type DataValue = string | ReadonlyArray<string> | { readonly external: string; readonly type?: string } | { readonly internal: number }

export interface SceneSpec {
  /** GDScript sub-resources (or of `className`, with one string property; `attach`: a `script` property naming that script file too); `bytes` replaces the source's UTF-8 (for bytes no editor writes), `property` its name (default script/source). */
  readonly scripts: ReadonlyArray<{ readonly id: string; readonly source: string; readonly bytes?: Uint8Array; readonly property?: string; readonly propertyBytes?: Uint8Array; readonly className?: string; readonly attach?: string }>
  /**
   * Animation sub-resources with one track on `path` (`Node/Child` names, `prop:sub` subnames): a value
   * track, or with `method` a method track whose one key calls that method with these arguments.
   */
  readonly animations?: ReadonlyArray<{ readonly id: string; readonly names: ReadonlyArray<string>; readonly subnames: ReadonlyArray<string>; readonly method?: { readonly name: string; readonly args: ReadonlyArray<DataValue> } }>
  readonly nodes: ReadonlyArray<SceneNode>
  /** Signal connections between nodes (indexes), with binds. */
  readonly connections?: ReadonlyArray<{ readonly from: number; readonly to: number; readonly signal: string; readonly method: string; readonly binds: ReadonlyArray<DataValue> }>
  /** ver_format: 5 for Godot 4.0.2-4.2, 6 from 4.3. */
  readonly formatVersion?: number
  /** The engine major version of the header (4; 3 makes the reader decode strings as Godot 3). */
  readonly engineMajor?: number
  /** Save as RSCC (zstd), as the editor does for .scn it saves itself. */
  readonly compressed?: boolean
  /** Write the scene as a sub-resource of a Resource that holds it in its metadata (`__meta__` {"s": the scene}), that resource the main one. */
  readonly holder?: boolean
  /** The resource id stored with an external script's path (Godot 4: the engine loads the path its uid cache gives the id). */
  readonly externalUids?: Readonly<Record<string, bigint>>
}

const TAG = { INT: 3, STRING: 5, NODE_PATH: 22, OBJECT: 24, DICTIONARY: 26, ARRAY: 30, PACKED_INT32: 32, PACKED_STRING: 34 } as const

/** An uncompressed RSRC PackedScene with GDScript sub-resources (named scene ids, UIDs). */
export const writeBinaryScene = (spec: SceneSpec): Uint8Array => {
  const referenced = (values: ReadonlyArray<DataValue>): ReadonlyArray<{ readonly path: string; readonly type: string }> =>
    values.flatMap((v) => (typeof v === "object" && "external" in v ? [{ path: v.external, type: v.type ?? "Script" }] : []))
  const allExternals = [
    ...spec.nodes.flatMap((n) => (n.script !== undefined && "external" in n.script ? [{ path: n.script.external, type: "Script" }] : [])),
    ...spec.scripts.flatMap((s) => (s.attach === undefined ? [] : [{ path: s.attach, type: "Script" }])),
    ...(spec.connections ?? []).flatMap((c) => referenced(c.binds)),
    ...(spec.animations ?? []).flatMap((a) => referenced(a.method?.args ?? [])),
  ]
  const externals = [...new Set(allExternals.map((e) => e.path))]
  const externalType = (path: string): string => allExternals.find((e) => e.path === path)?.type ?? "Script"
  const strings = ["script/source", "_bundled", "source_code", "tracks/0/path", "tracks/0/type", "tracks/0/keys", "__meta__", "script"]
  const animations = spec.animations ?? []
  const internals = [...spec.scripts.map((s) => `local://${s.id}`), ...animations.map((a) => `local://${a.id}`), "local://PackedScene_main", ...(spec.holder === true ? ["local://Resource_main"] : [])]

  // Variants table of the scene: one per script used by a node.
  const names: Array<string> = []
  const nameIndex = (s: string): number => {
    const i = names.indexOf(s)
    if (i >= 0) return i
    names.push(s)
    return names.length - 1
  }
  type Variant = { kind: "internal" | "external"; index: number } | { kind: "string"; text: string } | { kind: "int"; value: number } | { kind: "inline"; type: string; path: string }
  const variants: Array<Variant> = []
  const nodeInts: Array<number> = []
  for (const node of spec.nodes) {
    const props: Array<[number, number]> = []
    if (node.script !== undefined) {
      const v = "builtIn" in node.script ? { kind: "internal" as const, index: node.script.builtIn } : { kind: "external" as const, index: externals.indexOf(node.script.external) }
      variants.push(v)
      props.push([nameIndex("script"), variants.length - 1])
    }
    if (node.inline !== undefined) {
      variants.push({ kind: "inline", type: node.inline.type, path: node.inline.path })
      props.push([nameIndex(node.inline.property), variants.length - 1])
    }
    let instance = -1
    if (node.placeholder !== undefined) {
      variants.push(typeof node.placeholder === "string" ? { kind: "string", text: node.placeholder } : { kind: "int", value: node.placeholder })
      instance = (1 << 30) | (variants.length - 1)
    }
    nodeInts.push(node.parent, node.parent === -1 ? -1 : 0, node.placeholder === undefined ? nameIndex(node.type) : 0x7fffffff, nameIndex(node.name) | (1 << 18), instance, props.length)
    for (const [n, v] of props) nodeInts.push(n, v)
    nodeInts.push(0)
  }
  const bindVariants: Array<DataValue> = []
  const dataValue = (b: ByteBuilder, v: DataValue): void => {
    if (typeof v === "string") unicode(b.u32(TAG.STRING), v)
    else if ("external" in v) b.u32(TAG.OBJECT).u32(3).u32(externals.indexOf(v.external))
    else if ("internal" in v) b.u32(TAG.OBJECT).u32(2).u32(v.internal)
    else {
      b.u32(TAG.ARRAY).u32(v.length)
      for (const item of v) unicode(b.u32(TAG.STRING), item)
    }
  }
  const connInts: Array<number> = []
  for (const c of spec.connections ?? []) {
    connInts.push(c.from, c.to, nameIndex(c.signal), nameIndex(c.method), 0, c.binds.length)
    for (const b of c.binds) {
      bindVariants.push(b)
      connInts.push(variants.length + bindVariants.length - 1)
    }
    connInts.push(0)
  }

  const body = (headerLength: number): { readonly tables: Uint8Array; readonly resources: Uint8Array } => {
    const resources = new ByteBuilder()
    const offsets: Array<number> = []
    for (const s of spec.scripts) {
      offsets.push(resources.length)
      unicode(resources, s.className ?? "GDScript").u32(s.attach === undefined ? 1 : 2)
      // `propertyBytes`: the name written inline (bit 31 and its length with a NUL), byte for byte.
      if (s.propertyBytes === undefined) resources.u32(strings.indexOf(s.property ?? "script/source"))
      else resources.u32(0x80000000 | (s.propertyBytes.length + 1)).bytes(s.propertyBytes).u8(0)
      resources.u32(TAG.STRING)
      if (s.bytes === undefined) unicode(resources, s.source)
      else resources.u32(s.bytes.length + 1).bytes(s.bytes).u8(0)
      if (s.attach !== undefined) resources.u32(strings.indexOf("script")).u32(TAG.OBJECT).u32(3).u32(externals.indexOf(s.attach))
    }
    for (const a of animations) {
      offsets.push(resources.length)
      unicode(resources, "Animation").u32(a.method === undefined ? 1 : 3).u32(strings.indexOf("tracks/0/path")).u32(TAG.NODE_PATH).u16(a.names.length).u16(a.subnames.length)
      for (const part of [...a.names, ...a.subnames]) resources.u32(0x80000000 | utf8(part).length).bytes(utf8(part))
      if (a.method !== undefined) {
        unicode(resources.u32(strings.indexOf("tracks/0/type")).u32(TAG.STRING), "method")
        // keys = { "values": [ { "method": name, "args": [ … ] } ] }
        unicode(resources.u32(strings.indexOf("tracks/0/keys")).u32(TAG.DICTIONARY).u32(1).u32(TAG.STRING), "values")
        unicode(resources.u32(TAG.ARRAY).u32(1).u32(TAG.DICTIONARY).u32(2).u32(TAG.STRING), "method")
        unicode(resources.u32(TAG.STRING), a.method.name)
        unicode(resources.u32(TAG.STRING), "args")
        resources.u32(TAG.ARRAY).u32(a.method.args.length)
        for (const arg of a.method.args) dataValue(resources, arg)
      }
    }
    offsets.push(resources.length)
    unicode(resources, "PackedScene").u32(1).u32(1).u32(TAG.DICTIONARY).u32(9)
    const key = (k: string): void => {
      resources.u32(TAG.STRING)
      unicode(resources, k)
    }
    key("names")
    resources.u32(TAG.PACKED_STRING).u32(names.length)
    for (const n of names) unicode(resources, n)
    key("variants")
    resources.u32(TAG.ARRAY).u32(variants.length + bindVariants.length)
    for (const v of variants) {
      if (v.kind === "string") unicode(resources.u32(TAG.STRING), v.text)
      else if (v.kind === "int") resources.u32(TAG.INT).u32(v.value)
      else if (v.kind === "inline") unicode(unicode(resources.u32(TAG.OBJECT).u32(1), v.type), v.path)
      else resources.u32(TAG.OBJECT).u32(v.kind === "internal" ? 2 : 3).u32(v.index)
    }
    for (const b of bindVariants) dataValue(resources, b)
    key("node_count")
    resources.u32(TAG.INT).u32(spec.nodes.length)
    key("nodes")
    resources.u32(TAG.PACKED_INT32).u32(nodeInts.length)
    for (const i of nodeInts) resources.i32(i)
    key("conn_count")
    resources.u32(TAG.INT).u32(spec.connections?.length ?? 0)
    key("conns")
    resources.u32(TAG.PACKED_INT32).u32(connInts.length)
    for (const i of connInts) resources.i32(i)
    key("node_paths")
    resources.u32(TAG.ARRAY).u32(0)
    key("editable_instances")
    resources.u32(TAG.ARRAY).u32(0)
    key("version")
    resources.u32(TAG.INT).u32(3)
    if (spec.holder === true) {
      offsets.push(resources.length)
      unicode(resources, "Resource").u32(1).u32(strings.indexOf("__meta__")).u32(TAG.DICTIONARY).u32(1)
      key("s")
      resources.u32(TAG.OBJECT).u32(2).u32(internals.length - 2)
    }

    const tables = new ByteBuilder().u32(strings.length)
    for (const s of strings) unicode(tables, s)
    tables.u32(externals.length)
    for (const path of externals) {
      unicode(tables, externalType(path))
      unicode(tables, path)
      // ResourceUID::INVALID_ID (-1) when none: a u64 of 2 ** 64 - 1 would round to 2 ** 64 as a number.
      const uid = spec.externalUids?.[path] ?? 2n ** 64n - 1n
      tables.u32(Number(uid & 0xffffffffn)).u32(Number(uid >> 32n))
    }
    const tableLength = (() => {
      const t = new ByteBuilder().bytes(tables.build()).u32(internals.length)
      for (const p of internals) unicode(t, p).u64(0)
      return t.length
    })()
    const base = headerLength + tableLength
    tables.u32(internals.length)
    internals.forEach((p, i) => unicode(tables, p).u64(base + (offsets[i] ?? 0)))
    return { tables: tables.build(), resources: resources.build() }
  }

  // Offsets count from the start of the file for RSRC, from the start of the decompressed stream
  // (which has no magic) for RSCC.
  const header = new ByteBuilder().u32(0).u32(0).u32(spec.engineMajor ?? 4).u32(2).u32(spec.formatVersion ?? 5)
  unicode(header, spec.holder === true ? "Resource" : "PackedScene").u64(0).u32(0x3).u64(123456789).zeros(11 * 4)
  const magic = spec.compressed === true ? 0 : 4
  const { tables, resources } = body(magic + header.length)
  const stream = header.bytes(tables).bytes(resources).ascii("RSRC").build()
  return spec.compressed === true ? compressRscc(stream) : new ByteBuilder().ascii("RSRC").bytes(stream).build()
}

/** RSCC container (FileAccessCompressed, zstd, independent blocks) around a resource stream that has no magic. */
export const compressRscc = (stream: Uint8Array, blockSize = 4096): Uint8Array => {
  const blocks: Array<Uint8Array> = []
  for (let at = 0; at <= stream.length; at += blockSize) {
    const chunk = stream.subarray(at, Math.min(stream.length, at + blockSize))
    blocks.push(chunk.length === 0 ? new Uint8Array(0) : new Uint8Array(zstdCompressSync(chunk)))
    if (at + blockSize > stream.length) break
  }
  const b = new ByteBuilder().ascii("RSCC").u32(2).u32(blockSize).u32(stream.length)
  for (const block of blocks) b.u32(block.length)
  for (const block of blocks) b.bytes(block)
  return b.ascii("RSCC").build()
}
