import { ByteCursor } from "../io/ByteCursor.ts"
import type { RandomAccess } from "../io/RandomAccess.ts"

// Godot's Windows and Linux export templates carry a section named "pck" that the exporter
// rewrites to cover the embedded pack. These readers return that section's file offset, or null.
// Every count is bounded before use: a hostile executable header yields null, never a large read.

const MAX_SECTIONS = 4096
const MAX_NAME_TABLE = 1024 * 1024

export const findPeSection = async (source: RandomAccess): Promise<number | null> => {
  const c = new ByteCursor(source, 0, 4096)
  if (source.size < 0x40) return null
  c.seek(0x3c)
  const peOffset = await c.u32()
  if (peOffset + 24 > source.size) return null
  c.seek(peOffset)
  if ((await c.u32()) !== 0x00004550) return null // "PE\0\0"
  const coff = peOffset + 4
  c.seek(coff + 2)
  const sectionCount = await c.u16()
  c.seek(coff + 16)
  const optionalHeaderSize = await c.u16()
  const table = coff + 20 + optionalHeaderSize
  if (sectionCount > MAX_SECTIONS || table + sectionCount * 40 > source.size) return null
  for (let i = 0; i < sectionCount; i++) {
    c.seek(table + i * 40)
    const name = await c.bytes(8)
    if (name[0] === 0x70 && name[1] === 0x63 && name[2] === 0x6b && name[3] === 0) {
      c.seek(table + i * 40 + 20)
      return await c.u32()
    }
  }
  return null
}

export const findElfSection = async (source: RandomAccess): Promise<number | null> => {
  const c = new ByteCursor(source, 0, 4096)
  if (source.size < 0x40) return null
  c.seek(4)
  const elfClass = await c.u8()
  const dataEncoding = await c.u8()
  if (elfClass !== 1 && elfClass !== 2) return null
  c.littleEndian = dataEncoding !== 2
  const is64 = elfClass === 2
  c.seek(is64 ? 0x28 : 0x20)
  const sectionTable = is64 ? await c.u64() : await c.u32()
  c.seek(is64 ? 0x3a : 0x2e)
  const entrySize = await c.u16()
  const count = await c.u16()
  const namesIndex = await c.u16()
  const minEntry = is64 ? 64 : 40
  if (entrySize < minEntry || count > MAX_SECTIONS || namesIndex >= count) return null
  if (sectionTable + count * entrySize > source.size) return null
  const sectionAt = async (i: number): Promise<{ name: number; offset: number; size: number }> => {
    c.seek(sectionTable + i * entrySize)
    const name = await c.u32()
    if (is64) {
      c.skip(4 + 8 + 8)
      return { name, offset: await c.u64(), size: await c.u64() }
    }
    c.skip(4 + 4 + 4)
    return { name, offset: await c.u32(), size: await c.u32() }
  }
  const names = await sectionAt(namesIndex)
  if (names.size > MAX_NAME_TABLE || names.offset + names.size > source.size) return null
  c.seek(names.offset)
  const table = await c.bytes(names.size)
  for (let i = 0; i < count; i++) {
    const section = await sectionAt(i)
    const n = section.name
    if (n + 4 <= table.length && table[n] === 0x70 && table[n + 1] === 0x63 && table[n + 2] === 0x6b && table[n + 3] === 0) {
      return section.offset
    }
  }
  return null
}
