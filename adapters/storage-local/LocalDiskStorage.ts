import { createHash } from "node:crypto"
import { type FileHandle, link, mkdir, open, readdir, rm, stat, unlink } from "node:fs/promises"
import { dirname, join, relative, sep } from "node:path"
import { Readable } from "node:stream"
import { Effect, Layer, Option } from "effect"
import { Unavailable } from "../../domain/errors.ts"
import {
  ObjectExists,
  ObjectNotFound,
  ObjectStorage,
  ObjectTooLarge,
  StorageFull,
  type StoredObject,
  UploadAborted,
} from "../../ports/ObjectStorage.ts"
import { BodyStreamError } from "../shared/bytes.ts"
import { SignedUrls } from "../signed-urls/SignedUrls.ts"
import { streamIntoBlocks, writeFully } from "./blocks.ts"
import { openDirect, writeStreamDirect } from "./directWrite.ts"
import { PUT_HEADERS } from "../signed-urls/UrlSigner.ts"
import { makeTemporaryFiles } from "./temporaryFiles.ts"

// The embedded default store: objects are files under `<root>/objects/<key>`. A write goes to `<root>/incoming/`,
// is fsynced, then hard-linked into place — link() fails if the key exists, which makes keys write-once even between
// processes — and the directory is fsynced, so a committed object survives a crash and a cut-off one never appears.
// Writes asked to bypass the cache (multipart uploads) go around the page cache where the file system allows.

const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/
const BUFFER_BYTES = 4 * 1024 * 1024

const errno = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code

/** The device or the quota has no room: the writer's failure, reported as such (never as the client's). */
const isNoSpace = (error: unknown) => errno(error) === "ENOSPC" || errno(error) === "EDQUOT"

/** Partial files of writes whose owner is gone are removed at start-up; others once older than this. */
const DEFAULT_ABANDONED_GRACE_SECONDS = 3600

export interface LocalDiskOptions {
  /**
   * Writes asked to bypass the cache (multipart uploads) go around the page cache with O_DIRECT where the file system
   * allows (default true; see docs/performance.md for the figure that justifies it). False writes them like any other.
   */
  readonly directWrites?: boolean
  /**
   * A minor garbage collection after each 4 MiB block written, when the runtime exposes `gc` (Node with --expose-gc,
   * as `npm start` runs it; elsewhere this does nothing). Default true; see docs/performance.md.
   */
  readonly collectGarbageAfterWrites?: boolean
}

/** Folds objects' paths under the root; a key that could escape it is refused. */
const objectPath = (root: string, key: string): string => {
  if (!KEY_PATTERN.test(key) || key.split("/").some((s) => s === "." || s === "..")) throw new Error(`invalid object key: ${key}`)
  return join(root, "objects", ...key.split("/"))
}

const PRIVATE_DIR = 0o700

const fsyncDir = async (path: string) => {
  const handle = await open(path, "r")
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

type GarbageCollector = (options: { readonly type: "minor" | "major" }) => void

/**
 * Each network chunk is a 64 KiB buffer freed only when its small wrapper object is collected, and V8 lets such
 * external garbage grow by tens of megabytes before it collects: a large upload would hold that much memory for
 * nothing. A minor collection after each block written keeps it to a few megabytes; it costs well under a
 * millisecond per 4 MiB. Null when turned off or when the runtime does not expose `gc`.
 */
const chunkGarbageCollector = (enabled: boolean): (() => void) | null => {
  const gc = (globalThis as { gc?: GarbageCollector }).gc
  if (!enabled || typeof gc !== "function") return null
  return () => {
    // A hint to the runtime: a collector that refuses must never fail the write.
    try {
      gc({ type: "minor" })
    } catch {
      // nothing to do
    }
  }
}

/** Copies the stream into the file in large writes; "too_large" as soon as it passes `maxBytes`. */
const writeStream = async (handle: FileHandle, body: ReadableStream<Uint8Array>, maxBytes: number, afterBlock: () => void) => {
  const buffer = Buffer.allocUnsafe(BUFFER_BYTES)
  let position = 0
  const copied = await streamIntoBlocks(body, maxBytes, BUFFER_BYTES, () => buffer, async () => {
    await writeFully(handle, buffer, BUFFER_BYTES, position)
    position += BUFFER_BYTES
    afterBlock()
  })
  if (copied === "too_large") return copied
  if (copied.filled > 0) await writeFully(handle, buffer, copied.filled, position)
  return copied.total
}

const sha256OfFile = async (path: string) => {
  const handle = await open(path, "r")
  try {
    const hash = createHash("sha256")
    const buffer = Buffer.allocUnsafe(BUFFER_BYTES)
    let size = 0
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, BUFFER_BYTES, size)
      if (bytesRead === 0) break
      hash.update(buffer.subarray(0, bytesRead))
      size += bytesRead
    }
    return { sha256: hash.digest("hex"), sizeBytes: size }
  } finally {
    await handle.close()
  }
}

/** Both paths name the same file, or files with the same bytes. A missing source is ENOENT, as link() reports it. */
const sameObject = async (a: string, b: string): Promise<boolean> => {
  const [one, two] = await Promise.all([stat(a), stat(b)])
  if (one.dev === two.dev && one.ino === two.ino) return true
  if (one.size !== two.size) return false
  const [x, y] = await Promise.all([sha256OfFile(a), sha256OfFile(b)])
  return x.sha256 === y.sha256
}

async function* walk(dir: string): AsyncGenerator<string> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (error) {
    if (errno(error) === "ENOENT") return
    throw error
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(path)
    else if (entry.isFile()) yield path
  }
}

export const makeLocalDiskStorage = (root: string, options: LocalDiskOptions = {}) =>
  Effect.gen(function*() {
    const signer = yield* SignedUrls
    const directWrites = options.directWrites ?? true
    const afterBlock = chunkGarbageCollector(options.collectGarbageAfterWrites ?? true) ?? (() => undefined)
    const incoming = join(root, "incoming")
    yield* Effect.promise(() => mkdir(incoming, { recursive: true, mode: PRIVATE_DIR }))
    const temporary = makeTemporaryFiles(incoming)
    const down = (error: unknown) => new Unavailable({ dependency: "storage", reason: `local disk: ${errno(error) ?? String(error)}` })
    const attempt = <A>(f: () => Promise<A>) => Effect.tryPromise({ try: f, catch: down })
    // What a crashed process left behind is removed before anything is written (a full disk stays full otherwise).
    yield* Effect.promise(() => temporary.sweep(new Date(), DEFAULT_ABANDONED_GRACE_SECONDS).catch(() => undefined))

    const stored = async (key: string): Promise<StoredObject | null> => {
      try {
        const info = await stat(objectPath(root, key))
        return { key, sizeBytes: info.size, modifiedAt: info.mtime }
      } catch (error) {
        if (errno(error) === "ENOENT" || errno(error) === "ENOTDIR") return null
        throw error
      }
    }

    return ObjectStorage.of({
      presignPut: (key, { sizeBytes, now, expiresInSeconds }) => {
        const expiresAt = new Date(now.getTime() + expiresInSeconds * 1000)
        return attempt(() => signer.presignPut(key, sizeBytes, expiresAt)).pipe(
          Effect.map((url) => ({ url, headers: { ...PUT_HEADERS }, expiresAt })),
        )
      },
      presignGet: (key, { now, expiresInSeconds, downloadName }) => {
        const expiresAt = new Date(now.getTime() + expiresInSeconds * 1000)
        return attempt(() => signer.presignGet(key, expiresAt, downloadName)).pipe(Effect.map((url) => ({ url, expiresAt })))
      },
      head: (key) => attempt(() => stored(key)).pipe(Effect.map(Option.fromNullishOr)),
      digest: (key) =>
        attempt(async () => {
          try {
            return Option.some(await sha256OfFile(objectPath(root, key)))
          } catch (error) {
            if (errno(error) === "ENOENT") return Option.none()
            throw error
          }
        }),
      readRange: (key, offset, length) =>
        Effect.tryPromise({
          try: async () => {
            const handle = await open(objectPath(root, key), "r")
            try {
              const buffer = new Uint8Array(Math.max(0, length))
              const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset)
              return buffer.subarray(0, bytesRead)
            } finally {
              await handle.close()
            }
          },
          catch: (error) => (errno(error) === "ENOENT" ? new ObjectNotFound({ key }) : down(error)),
        }),
      read: (key) =>
        Effect.tryPromise({
          try: async () => {
            // The stream owns the handle and closes it when done or cancelled.
            const handle = await open(objectPath(root, key), "r")
            return Readable.toWeb(handle.createReadStream({ highWaterMark: 1024 * 1024 })) as ReadableStream<Uint8Array>
          },
          catch: (error) => (errno(error) === "ENOENT" ? new ObjectNotFound({ key }) : down(error)),
        }),
      put: (key, body, { maxBytes, bypassCache }) =>
        Effect.gen(function*() {
          const target = objectPath(root, key)
          if ((yield* attempt(() => stored(key))) !== null) {
            yield* Effect.promise(() => body.cancel().catch(() => undefined))
            return yield* new ObjectExists({ key })
          }
          const aside = temporary.claim()
          const outcome = yield* Effect.tryPromise({
            try: async () => {
              const direct = bypassCache === true && directWrites ? await openDirect(aside) : null
              const handle = direct?.handle ?? await open(aside, "wx", 0o600)
              try {
                const written = await (direct !== null
                  ? writeStreamDirect(direct, aside, body, maxBytes, afterBlock)
                  : writeStream(handle, body, maxBytes, afterBlock))
                if (written === "too_large") return written
                await handle.sync()
              } finally {
                await handle.close()
              }
              await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR })
              try {
                await link(aside, target)
              } catch (error) {
                if (errno(error) === "EEXIST") return "exists" as const
                throw error
              }
              await fsyncDir(dirname(target))
              return "stored" as const
            },
            // The body's failure is the client's; anything else (a full disk first) is the store's.
            catch: (error) =>
              error instanceof BodyStreamError ? new UploadAborted({ key }) : isNoSpace(error) ? new StorageFull({ key }) : down(error),
          }).pipe(Effect.ensuring(Effect.promise(async () => {
            // The body is cancelled whatever happened (a no-op once it was read to its end).
            await body.cancel().catch(() => undefined)
            await unlink(aside).catch(() => undefined)
            temporary.release(aside)
          })))
          if (outcome === "too_large") return yield* new ObjectTooLarge({ key, limitBytes: maxBytes })
          if (outcome === "exists") return yield* new ObjectExists({ key })
          const info = yield* attempt(() => stored(key))
          if (info === null) return yield* down(new Error("object vanished after write"))
          return info
        }),
      // link(), fsync, unlink(): a crash between them leaves the object at both keys. A retry finds the destination
      // taken by the same file (or a file with the same bytes) and finishes the move; other bytes there refuse it.
      move: (fromKey, toKey) =>
        Effect.tryPromise({
          try: async () => {
            const [from, to] = [objectPath(root, fromKey), objectPath(root, toKey)]
            await mkdir(dirname(to), { recursive: true, mode: PRIVATE_DIR })
            try {
              await link(from, to)
            } catch (error) {
              if (errno(error) !== "EEXIST" || !(await sameObject(from, to))) throw error
            }
            await fsyncDir(dirname(to))
            await unlink(from)
          },
          catch: (error) =>
            errno(error) === "EEXIST"
              ? new ObjectExists({ key: toKey })
              : errno(error) === "ENOENT"
              ? new ObjectNotFound({ key: fromKey })
              : down(error),
        }),
      delete: (key) =>
        attempt(async () => {
          await rm(objectPath(root, key), { force: true })
        }),
      list: (prefix) =>
        attempt(async () => {
          const base = join(root, "objects")
          const out: Array<StoredObject> = []
          for await (const path of walk(base)) {
            const key = relative(base, path).split(sep).join("/")
            if (!key.startsWith(prefix)) continue
            const info = await stat(path).catch(() => null)
            if (info !== null) out.push({ key, sizeBytes: info.size, modifiedAt: info.mtime })
          }
          return out
        }),
      removeAbandonedWrites: ({ now, graceSeconds }) => attempt(() => temporary.sweep(now, graceSeconds)),
    })
  })

export const layerLocalDiskStorage = (root: string, options: LocalDiskOptions = {}) =>
  Layer.effect(ObjectStorage, makeLocalDiskStorage(root, options))
