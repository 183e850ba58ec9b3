import { readExactly, type RandomAccess } from "../io/RandomAccess.ts"
import { PACK_MAGIC, type PackLocation } from "./PackLayout.ts"

const u32At = (bytes: Uint8Array, at: number): number =>
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, true)

const hasMagicAt = async (source: RandomAccess, offset: number): Promise<boolean> => {
  if (!(offset >= 0 && offset + 4 <= source.size)) return false
  return u32At(await readExactly(source, offset, 4), 0) === PACK_MAGIC
}

/** The exporter records the section start before 0-7 bytes of alignment padding, so probe each. */
const probeSection = async (source: RandomAccess, sectionStart: number | null): Promise<number | null> => {
  if (sectionStart === null) return null
  for (let pad = 0; pad < 8; pad++) if (await hasMagicAt(source, sectionStart + pad)) return sectionStart + pad
  return null
}

/**
 * Finds the pack's `GDPC` header: at offset 0 first (this also covers Godot 2.1 packs with a
 * footer and 3.0/3.1 packs that end in a bare `GDPC`), then a PE/ELF `pck` section, then the
 * 12-byte trailer. Null: not a Godot pack at all.
 */
export const locatePack = async (source: RandomAccess): Promise<PackLocation | null> => {
  if (source.size < 4) return null
  // One read that, for a standalone pack, also covers the header and the start of the directory.
  const head = await readExactly(source, 0, Math.min(4096, source.size))
  if (u32At(head, 0) === PACK_MAGIC) return { packStart: 0, foundBy: "header" }
  // Executables are rare uploads: their section readers load only when one arrives.
  if (head[0] === 0x4d && head[1] === 0x5a) {
    const { findPeSection } = await import("./executableSection.ts")
    const start = await probeSection(source, await findPeSection(source))
    if (start !== null) return { packStart: start, foundBy: "pe-section" }
  }
  if (head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) {
    const { findElfSection } = await import("./executableSection.ts")
    const start = await probeSection(source, await findElfSection(source))
    if (start !== null) return { packStart: start, foundBy: "elf-section" }
  }
  if (source.size >= 16) {
    const tail = await readExactly(source, source.size - 12, 12)
    if (u32At(tail, 8) === PACK_MAGIC) {
      const packSize = u32At(tail, 0) + u32At(tail, 4) * 2 ** 32
      const start = source.size - 12 - packSize
      if (start >= 0 && (await hasMagicAt(source, start))) return { packStart: start, foundBy: "trailer" }
    }
  }
  return null
}
