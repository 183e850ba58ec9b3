// The buckets of the GCS test double: object bytes in files under a scratch folder (so large objects never sit in
// the test process's memory), metadata in maps. Every commit carries GCS's generation preconditions and is decided
// synchronously, so concurrent writers race exactly as on GCS: one generation wins.
import { createHash, randomUUID } from "node:crypto"
import { createWriteStream, mkdirSync, rmSync } from "node:fs"
import { copyFile, unlink } from "node:fs/promises"
import { join } from "node:path"
import type { Readable } from "node:stream"
import { Transform } from "node:stream"
import { pipeline } from "node:stream/promises"

export interface Blob {
  readonly bucket: string
  readonly name: string
  readonly generation: string
  readonly size: number
  /** Base64 MD5, as GCS's md5Hash. */
  readonly md5: string
  readonly contentType: string
  readonly path: string
  readonly created: Date
}

export interface Preconditions {
  /** "0" = the object must not exist. */
  readonly ifGenerationMatch?: string | null
}

export interface Received {
  readonly path: string
  readonly size: number
  readonly md5: string
}

export type CommitResult = { readonly ok: true; readonly blob: Blob } | { readonly ok: false; readonly reason: "noSuchBucket" | "conditionNotMet" }

export class Blobs {
  readonly #root: string
  readonly #buckets = new Map<string, Map<string, Blob>>()
  #lastGeneration = Date.now() * 1000

  constructor(root: string) {
    this.#root = root
    mkdirSync(root, { recursive: true })
  }

  createBucket(name: string): void {
    if (!this.#buckets.has(name)) this.#buckets.set(name, new Map())
  }

  /** Removes a bucket and its objects (a bucket deleted behind the service's back). */
  deleteBucket(name: string): void {
    for (const blob of this.#buckets.get(name)?.values() ?? []) void unlink(blob.path).catch(() => undefined)
    this.#buckets.delete(name)
  }

  hasBucket(name: string): boolean {
    return this.#buckets.has(name)
  }

  get(bucket: string, name: string): Blob | undefined {
    return this.#buckets.get(bucket)?.get(name)
  }

  list(bucket: string): ReadonlyArray<Blob> {
    return [...(this.#buckets.get(bucket)?.values() ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1))
  }

  /** Streams a request body to a scratch file; rejects if the body ends early (client gone, connection cut). */
  async receive(body: Readable): Promise<Received> {
    const path = join(this.#root, `${randomUUID()}.part`)
    const md5 = createHash("md5")
    let size = 0
    const count = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        md5.update(chunk)
        size += chunk.length
        callback(null, chunk)
      },
    })
    try {
      await pipeline(body, count, createWriteStream(path))
    } catch (error) {
      await unlink(path).catch(() => undefined)
      throw error
    }
    return { path, size, md5: md5.digest("base64") }
  }

  /** A copy of a stored object's bytes, ready to commit under another name (rewrite/copy). */
  async duplicate(blob: Blob): Promise<Received> {
    const path = join(this.#root, `${randomUUID()}.part`)
    await copyFile(blob.path, path)
    return { path, size: blob.size, md5: blob.md5 }
  }

  discard(received: Received): void {
    void unlink(received.path).catch(() => undefined)
  }

  /** Makes received bytes the object's new generation if the preconditions hold (checked and applied at once). */
  commit(bucket: string, name: string, received: Received, contentType: string, preconditions: Preconditions): CommitResult {
    const objects = this.#buckets.get(bucket)
    const failure = this.check(bucket, name, preconditions)
    if (objects === undefined || failure !== null) {
      this.discard(received)
      return { ok: false, reason: failure ?? "noSuchBucket" }
    }
    const previous = objects.get(name)
    const blob: Blob = {
      bucket,
      name,
      generation: String(++this.#lastGeneration),
      size: received.size,
      md5: received.md5,
      contentType,
      path: received.path,
      created: new Date(),
    }
    objects.set(name, blob)
    if (previous !== undefined) void unlink(previous.path).catch(() => undefined)
    return { ok: true, blob }
  }

  check(bucket: string, name: string, preconditions: Preconditions): "noSuchBucket" | "conditionNotMet" | null {
    const objects = this.#buckets.get(bucket)
    if (objects === undefined) return "noSuchBucket"
    const match = preconditions.ifGenerationMatch
    if (match === undefined || match === null) return null
    const current = objects.get(name)?.generation ?? "0"
    return current === match ? null : "conditionNotMet"
  }

  delete(bucket: string, name: string): boolean {
    const blob = this.#buckets.get(bucket)?.get(name)
    if (blob === undefined) return false
    this.#buckets.get(bucket)!.delete(name)
    // An open reader keeps its file handle; unlinking is safe on POSIX.
    void unlink(blob.path).catch(() => undefined)
    return true
  }

  close(): void {
    this.#buckets.clear()
    rmSync(this.#root, { recursive: true, force: true })
  }
}
