// Node only: a ByteSource over a local file with positional reads, so a scan never streams the whole file.
import { open } from "node:fs/promises"
import type { ByteSource } from "../../ports/PackScanner.ts"

export interface FileByteSource extends ByteSource {
  close(): Promise<void>
}

/** Opens `path` for positional reads. Close it when done (the CLI and tests do, in `finally`). */
export const openFileByteSource = async (path: string): Promise<FileByteSource> => {
  const handle = await open(path, "r")
  try {
    const { size } = await handle.stat()
    return {
      size,
      read: async (offset, length) => {
        const want = Math.max(0, Math.min(length, size - offset))
        const buffer = new Uint8Array(want)
        let filled = 0
        while (filled < want) {
          const { bytesRead } = await handle.read(buffer, filled, want - filled, offset + filled)
          if (bytesRead === 0) break
          filled += bytesRead
        }
        return filled === want ? buffer : buffer.subarray(0, filled)
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
export const withFileByteSource = async <A>(path: string, use: (source: ByteSource) => Promise<A>): Promise<A> => {
  const source = await openFileByteSource(path)
  try {
    return await use(source)
  } finally {
    await source.close()
  }
}
