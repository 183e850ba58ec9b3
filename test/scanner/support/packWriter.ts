// Writes .pck files from the byte tables of the format reference (§2-§4), for layouts no real
// sample has (embedded in an executable, encrypted, removal/delta/sparse) and for violation cases
// in Godot 4 layouts. Every layout written here that the corpus also has is read from a corpus
// file too (corpus.test.ts).
import { Md5 } from "../../../adapters/scanner/io/md5.ts"
import { ByteBuilder, pseudoRandomBytes, utf8 } from "./bytes.ts"

export const FILE_ENCRYPTED = 1
export const FILE_REMOVAL = 2
export const FILE_DELTA = 4
export const PACK_DIR_ENCRYPTED = 1
export const PACK_REL_FILEBASE = 2
export const PACK_SPARSE_BUNDLE = 4

export interface WriterEntry {
  readonly path: string
  readonly data?: Uint8Array
  readonly flags?: number
  /** Overrides for forged directories. */
  readonly size?: number
  readonly offset?: number
  readonly rawPathBytes?: Uint8Array
}

export interface PackOptions {
  readonly format: number
  readonly engine?: readonly [number, number, number]
  readonly entries: ReadonlyArray<WriterEntry>
  readonly packFlags?: number
  /** Godot 4.4+ stores bare paths; earlier exports keep `res://`. */
  readonly bare?: boolean
  /** Override of file_count (forged directories). */
  readonly fileCount?: number
}

const md5Of = (data: Uint8Array): Uint8Array => new Md5().update(data).digest()

/** Bytes an entry occupies in the data area (encrypted entries carry the 40-byte prefix). */
const storedBytes = (e: WriterEntry): Uint8Array => {
  const data = e.data ?? new Uint8Array(0)
  if ((e.flags ?? 0) & FILE_REMOVAL) return new Uint8Array(0)
  if ((e.flags ?? 0) & FILE_ENCRYPTED) {
    const b = new ByteBuilder().bytes(md5Of(data)).u64(data.length).bytes(pseudoRandomBytes(16, 7))
    return b.bytes(pseudoRandomBytes(Math.ceil(data.length / 16) * 16, data.length + 1)).build()
  }
  return data
}

const pathBytes = (e: WriterEntry, bare: boolean, pad: boolean): Uint8Array => {
  if (e.rawPathBytes !== undefined) return e.rawPathBytes
  const raw = utf8(bare ? e.path.replace(/^res:\/\//, "") : e.path.startsWith("res://") ? e.path : `res://${e.path}`)
  if (!pad) return raw
  const padded = new Uint8Array(Math.ceil(raw.length / 4) * 4)
  padded.set(raw)
  return padded
}

/**
 * A pack as the editor writes it, placed at `packStart` of the final file (offsets of formats 1 and
 * 2 without PACK_REL_FILEBASE are absolute in that file, the rest relative to the pack).
 */
export const writePack = (options: PackOptions, packStart = 0): Uint8Array => {
  const { format, entries } = options
  const [major, minor, patch] = options.engine ?? (format <= 1 ? [3, 5, 3] : format === 2 ? [4, 2, 2] : format === 3 ? [4, 5, 0] : [4, 7, 1])
  const flags = options.packFlags ?? (format >= 3 ? PACK_REL_FILEBASE : 0)
  const bare = options.bare ?? format >= 3
  const withFlags = format >= 2
  const stored = entries.map(storedBytes)
  const directoryFor = (offsets: ReadonlyArray<number>): Uint8Array => {
    const d = new ByteBuilder().u32(options.fileCount ?? entries.length)
    if (flags & PACK_DIR_ENCRYPTED) {
      // One opaque block: MD5, plaintext length, IV, ciphertext (reference §4.2).
      return d.bytes(pseudoRandomBytes(16, 1)).u64(64).bytes(pseudoRandomBytes(16 + 64, 2)).build()
    }
    entries.forEach((e, i) => {
      const p = pathBytes(e, bare, true)
      const data = e.data ?? new Uint8Array(0)
      d.u32(p.length).bytes(p).u64(e.offset ?? offsets[i] ?? 0).u64(e.size ?? data.length)
      d.bytes((e.flags ?? 0) & FILE_REMOVAL ? new Uint8Array(16) : md5Of(data))
      if (withFlags) d.u32(e.flags ?? 0)
    })
    return d.build()
  }
  const header = (b: ByteBuilder): ByteBuilder => b.ascii("GDPC").u32(format).u32(major).u32(minor).u32(patch)

  if (format <= 1 || format === 2) {
    const headerBytes = format === 2 ? 96 : 84
    // Directory size does not depend on offsets, so measure it with zeros first.
    const dirLength = directoryFor(entries.map(() => 0)).length
    const dataStart = Math.ceil((headerBytes + dirLength) / 16) * 16
    const offsets: Array<number> = []
    let at = 0
    for (const s of stored) {
      offsets.push(at)
      at += Math.ceil(s.length / 16) * 16
    }
    const relative = format === 2 && (flags & PACK_REL_FILEBASE) !== 0
    const fileBase = relative ? dataStart : packStart + dataStart
    const absolute = format <= 1 ? offsets.map((o) => packStart + dataStart + o) : offsets
    const b = header(new ByteBuilder())
    if (format === 2) b.u32(flags).u64(fileBase)
    b.zeros(64).bytes(directoryFor(absolute)).padTo(16)
    for (const s of stored) b.bytes(s).padTo(16)
    return b.build()
  }
  // Formats 3 and 4: header, data from 112, directory last.
  const offsets: Array<number> = []
  const data = new ByteBuilder()
  for (const s of stored) {
    offsets.push(data.length)
    data.bytes(s).padTo(16)
  }
  const fileBase = 112
  const dirOffset = fileBase + data.length
  return header(new ByteBuilder()).u32(flags).u64(fileBase).u64(dirOffset).zeros(64).padTo(16).bytes(data.build()).bytes(directoryFor(offsets)).build()
}

/** The 12-byte trailer the exporter appends to an executable with an embedded pack (reference §3.1). */
export const trailer = (packLength: number): Uint8Array => new ByteBuilder().u64(packLength).ascii("GDPC").build()

/** A minimal 64-bit ELF whose `pck` section points at `packStart` (reference §3.2). */
export const elfPrefix = (packStart: number, packLength: number, length: number): Uint8Array => {
  const names = utf8("\0.shstrtab\0pck\0")
  const b = new ByteBuilder()
  b.bytes([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).zeros(8) // ident
  b.u16(2).u16(62).u32(1).u64(0).u64(0) // type, machine, version, entry, phoff
  const shoff = 0x100
  b.u64(shoff).u32(0).u16(64).u16(0).u16(0).u16(64).u16(3).u16(1) // shoff, flags, ehsize, phentsize, phnum, shentsize, shnum, shstrndx
  b.zeros(shoff - b.length)
  const section = (name: number, offset: number, size: number): void => {
    b.u32(name).u32(1).u64(0).u64(0).u64(offset).u64(size).u32(0).u32(0).u64(1).u64(0)
  }
  section(0, 0, 0)
  section(1, shoff + 3 * 64, names.length)
  section(11, packStart, packLength)
  b.bytes(names)
  if (b.length > length) throw new Error("ELF prefix too short")
  return b.zeros(length - b.length).build()
}

/** A minimal PE whose `pck` section points at `packStart` (reference §3.2). */
export const pePrefix = (packStart: number, packLength: number, length: number): Uint8Array => {
  const b = new ByteBuilder().ascii("MZ").zeros(0x3a).u32(0x40)
  b.ascii("PE\0\0").u16(0x8664).u16(1).u32(0).u32(0).u32(0).u16(0).u16(0x22)
  b.ascii("pck\0\0\0\0\0").u32(8).u32(0x1000).u32(packLength).u32(packStart).zeros(16)
  if (b.length > length) throw new Error("PE prefix too short")
  return b.zeros(length - b.length).build()
}
