// Node only: a ByteSource over a local file with positional reads, so a scan never streams the whole file.
import { type FileHandle, open } from "node:fs/promises"
import type { ByteSource } from "../../ports/PackScanner.ts"

export interface FileByteSource extends ByteSource {
  close(): Promise<void>
  /** Bytes read from the file so far: whole blocks for small reads, so more than the reader asked for. */
  readonly bytesFromFile: number
}

export interface FileByteSourceOptions {
  /**
   * Size of the aligned blocks small reads are served from (default 64 KiB; 0 reads exactly what is asked). The
   * scanner asks for many small pieces near each other (headers, tables, short entries): one read of the file per
   * block instead of one per piece. Reads of a block or more go to the file directly. See docs/performance.md.
   */
  readonly blockBytes?: number
  /** How many blocks are kept, the least recently used dropped first (default 16: 1 MiB at the default size). */
  readonly keptBlocks?: number
}

const DEFAULT_BLOCK_BYTES = 64 * 1024
const DEFAULT_KEPT_BLOCKS = 16

/** Reads `want` bytes at `offset` (fewer at the end of the file). */
type ReadExactly = (offset: number, want: number) => Promise<Uint8Array>

const exactReader = (handle: FileHandle, counted: (bytes: number) => void): ReadExactly => async (offset, want) => {
  const buffer = new Uint8Array(want)
  let filled = 0
  while (filled < want) {
    const { bytesRead } = await handle.read(buffer, filled, want - filled, offset + filled)
    if (bytesRead === 0) break
    filled += bytesRead
  }
  counted(filled)
  return filled === want ? buffer : buffer.subarray(0, filled)
}

/**
 * The blocks read so far, by index, most recently used last. A block is kept as its pending read, so that pieces asked
 * for at once share one read; a read that fails is forgotten, so that asking again reads again.
 */
const blockReader = (readExactly: ReadExactly, size: number, blockBytes: number, keptBlocks: number) => {
  const blocks = new Map<number, Promise<Uint8Array>>()
  const blockAt = (index: number): Promise<Uint8Array> => {
    const kept = blocks.get(index)
    if (kept !== undefined) {
      blocks.delete(index)
      blocks.set(index, kept)
      return kept
    }
    const offset = index * blockBytes
    const reading = readExactly(offset, Math.min(blockBytes, size - offset))
    blocks.set(index, reading)
    reading.catch(() => {
      if (blocks.get(index) === reading) blocks.delete(index)
    })
    while (blocks.size > keptBlocks) blocks.delete(blocks.keys().next().value as number)
    return reading
  }
  return async (offset: number, want: number): Promise<Uint8Array> => {
    const first = Math.floor(offset / blockBytes)
    const last = Math.floor((offset + want - 1) / blockBytes)
    const parts = await Promise.all(Array.from({ length: last - first + 1 }, (_, i) => blockAt(first + i)))
    if (parts.length === 1) return parts[0]!.slice(offset - first * blockBytes, offset - first * blockBytes + want)
    const out = new Uint8Array(want)
    let filled = 0
    for (const [i, part] of parts.entries()) {
      const from = i === 0 ? offset - first * blockBytes : 0
      const piece = part.subarray(from, Math.min(part.length, from + want - filled))
      out.set(piece, filled)
      filled += piece.length
    }
    return filled === want ? out : out.subarray(0, filled)
  }
}

/** Opens `path` for positional reads. Close it when done (the CLI and tests do, in `finally`). */
export const openFileByteSource = async (path: string, options: FileByteSourceOptions = {}): Promise<FileByteSource> => {
  const handle = await open(path, "r")
  try {
    const { size } = await handle.stat()
    let bytesFromFile = 0
    const readExactly = exactReader(handle, (bytes) => {
      bytesFromFile += bytes
    })
    const blockBytes = options.blockBytes ?? DEFAULT_BLOCK_BYTES
    const fromBlocks = blockBytes > 0 ? blockReader(readExactly, size, blockBytes, Math.max(1, options.keptBlocks ?? DEFAULT_KEPT_BLOCKS)) : null
    return {
      size,
      get bytesFromFile() {
        return bytesFromFile
      },
      read: async (offset, length) => {
        const want = Math.max(0, Math.min(length, size - offset))
        if (want === 0) return new Uint8Array(0)
        return fromBlocks !== null && want < blockBytes ? fromBlocks(offset, want) : readExactly(offset, want)
      },
      close: () => handle.close(),
    }
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** The name the port's documentation uses for this helper. */
export const fileByteSource = openFileByteSource

/** Runs `use` with the file open and closes it afterwards, whatever happens. */
export const withFileByteSource = async <A>(path: string, use: (source: ByteSource) => Promise<A>, options: FileByteSourceOptions = {}): Promise<A> => {
  const source = await openFileByteSource(path, options)
  try {
    return await use(source)
  } finally {
    await source.close()
  }
}
