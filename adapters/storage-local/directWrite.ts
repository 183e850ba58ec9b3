// Writing around the page cache (O_DIRECT) for large objects nothing reads back whole soon after: a multipart upload,
// hashed on its way in and then only sampled by the scanner. Copying gigabytes into the page cache costs the kernel
// more CPU than hashing them (several seconds per 2 GiB on a virtual machine whose memory is handed out lazily), and
// evicts what readers need; a direct write goes from our buffer to the device.
import { constants } from "node:fs"
import { type FileHandle, open, unlink } from "node:fs/promises"
import { streamIntoBlocks, writeFully } from "./blocks.ts"

/** O_DIRECT wants the buffer address, the file offset and the length aligned to the device's block size: 4 KiB covers it. */
const ALIGNMENT = 4096
const BLOCK_BYTES = 4 * 1024 * 1024

const errno = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code

/**
 * Block buffers on page boundaries, reused across writes. A WebAssembly memory starts on a page boundary, which a
 * Buffer's memory is not guaranteed to; each memory reserves a large address range, so buffers are carved from a few
 * arenas of ARENA_BLOCKS blocks and kept for the next write instead of allocating memories per upload. Arenas are
 * never freed, so there are at most MAX_ARENAS (64 MiB): direct writes beyond the eighth at once are written the
 * usual way instead.
 */
const ARENA_BLOCKS = 8
const MAX_ARENAS = 2
const freeBlocks: Array<Uint8Array> = []
let arenas = 0

export type BlockPair = readonly [Uint8Array, Uint8Array]

/** Two block buffers for one direct write, or null when no aligned memory can be had (then write the usual way). */
const takeBlocks = (): BlockPair | null => {
  try {
    while (freeBlocks.length < 2) {
      if (arenas >= MAX_ARENAS) return null
      const pages = (ARENA_BLOCKS * BLOCK_BYTES) / 65536
      const arena = new WebAssembly.Memory({ initial: pages, maximum: pages })
      arenas++
      for (let i = 0; i < ARENA_BLOCKS; i++) freeBlocks.push(new Uint8Array(arena.buffer, i * BLOCK_BYTES, BLOCK_BYTES))
    }
  } catch {
    return null
  }
  return [freeBlocks.pop()!, freeBlocks.pop()!]
}

/** Gives the buffers back for the next write; only once no write on them is running. */
const returnBlocks = (blocks: BlockPair): void => {
  freeBlocks.push(...blocks)
}

/** A new file open for direct writes, with the two buffers its write uses. */
export interface DirectTarget {
  readonly handle: FileHandle
  readonly blocks: BlockPair
}

/**
 * Creates `path` for direct writes; null when that cannot be (no aligned memory, or a file system without O_DIRECT,
 * e.g. tmpfs before Linux 6.6 — which Linux may only say after creating the file, so that file is removed again for
 * the caller to create it the usual way). Pass the target to writeStreamDirect, which gives its buffers back.
 */
export const openDirect = async (path: string): Promise<DirectTarget | null> => {
  const blocks = takeBlocks()
  if (blocks === null) return null
  try {
    return { handle: await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_DIRECT, 0o600), blocks }
  } catch (error) {
    returnBlocks(blocks)
    if (errno(error) !== "EINVAL") throw error
    await unlink(path).catch(() => undefined)
    return null
  }
}

/**
 * Copies the stream into a file opened with openDirect, in 4 MiB blocks from its two aligned buffers (one filling while
 * the other is written). The last partial block's unaligned end is written through an ordinary handle on the same
 * file. Returns the byte count, or "too_large" as soon as it passes `maxBytes`; no write is running when it settles.
 * `afterBlock` runs after each block.
 *
 * A block write runs while the next block fills, so its failure (a full disk) is caught the moment it happens and
 * recorded: the copy stops at the next chunk with that error and the body is cancelled. No write promise is ever left
 * without a handler (an unhandled rejection would end the process).
 */
export const writeStreamDirect = async (
  target: DirectTarget,
  path: string,
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  afterBlock: () => void,
): Promise<number | "too_large"> => {
  const { handle: direct, blocks: buffers } = target
  let current: 0 | 1 = 0
  let position = 0
  let failed: { readonly error: unknown } | null = null
  let inFlight: Promise<void> = Promise.resolve()
  const throwIfFailed = () => {
    if (failed !== null) throw failed.error
  }
  // At most one write in flight; the buffer it reads is refilled only after it completed (the other one fills meanwhile).
  const writeBlock = async (length: number) => {
    await inFlight
    throwIfFailed()
    inFlight = writeFully(direct, buffers[current], length, position, false).then(afterBlock, (error: unknown) => {
      failed = { error }
    })
    position += length
    current = current === 0 ? 1 : 0
  }
  const filling = () => {
    throwIfFailed()
    return buffers[current]
  }
  try {
    const copied = await streamIntoBlocks(body, maxBytes, BLOCK_BYTES, filling, () => writeBlock(BLOCK_BYTES))
    if (copied === "too_large") return copied
    const { filled } = copied
    const aligned = filled - (filled % ALIGNMENT)
    const rest = buffers[current].slice(aligned, filled)
    if (aligned > 0) await writeBlock(aligned)
    await inFlight
    throwIfFailed()
    if (rest.length > 0) {
      const tail = await open(path, "r+")
      try {
        await writeFully(tail, rest, rest.length, position)
      } finally {
        await tail.close()
      }
    }
    return copied.total
  } finally {
    // Never leave a write running on a handle the caller is about to close, nor on the buffers given back.
    await inFlight
    returnBlocks(buffers)
  }
}
