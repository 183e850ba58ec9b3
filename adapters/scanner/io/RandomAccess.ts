import type { ByteSource } from "../../../ports/PackScanner.ts"
import { MalformedData } from "./errors.ts"

/** What every parser reads from: the pack, one entry of it, or a decompressed RSCC stream. */
export type RandomAccess = ByteSource

/** A window of `length` bytes starting at `start` of `source`, addressed from 0. */
export const sliceOf = (source: RandomAccess, start: number, length: number): RandomAccess => {
  if (start < 0 || length < 0 || start + length > source.size) {
    throw new MalformedData(`range ${start}+${length} lies outside ${source.size} bytes`)
  }
  return {
    size: length,
    read: (offset, want) => {
      const clamped = Math.max(0, Math.min(want, length - offset))
      return source.read(start + offset, clamped)
    },
  }
}

export const bytesSource = (bytes: Uint8Array): RandomAccess => ({
  size: bytes.length,
  read: (offset, length) => Promise.resolve(bytes.subarray(offset, Math.min(bytes.length, offset + length))),
})

/** Reads exactly `length` bytes (fewer only past the end) and fails as malformed when the source comes up short. */
export const readExactly = async (source: RandomAccess, offset: number, length: number): Promise<Uint8Array> => {
  const want = Math.max(0, Math.min(length, source.size - offset))
  if (want === 0) return new Uint8Array(0)
  const bytes = await source.read(offset, want)
  if (bytes.length < want) throw new MalformedData(`expected ${want} bytes at ${offset}, got ${bytes.length}`)
  return bytes.length === want ? bytes : bytes.subarray(0, want)
}
