import { Effect, Layer, Option } from "effect"
import { Unavailable } from "../../../domain/errors.ts"
import type { ByteSource } from "../../../ports/PackScanner.ts"
import { PackFiles } from "../../../ports/PackFiles.ts"
import { CountingSource } from "../io/CountingSource.ts"
import { describeError, MalformedData, SourceFailure } from "../io/errors.ts"
import { indexPack, type NewSha256 } from "./indexPack.ts"
import { nodeSha256 } from "./nodeSha256.ts"
import { openEntries, type OpenedEntries } from "./packEntries.ts"
import { readPackFile } from "./readPackFile.ts"
import { unifiedDiff } from "./unifiedDiff.ts"

const failure = (error: unknown) =>
  error instanceof SourceFailure
    ? new Unavailable({ dependency: "storage", reason: `${error.message}: ${describeError(error.original)}` })
    : new Unavailable({ dependency: "scanner", reason: describeError(error) })

/** A damaged pack reads as what could be read: a malformed structure is no failure of the service. */
const orEmpty = <A>(run: () => Promise<A>, empty: A): Promise<A> =>
  run().catch((error: unknown) => {
    if (error instanceof MalformedData || error instanceof RangeError) return empty
    throw error
  })

/** `newHash`: the streaming SHA-256 entry hashes are computed with (node:crypto by default). */
export const makePackFiles = (newHash: NewSha256 = nodeSha256): PackFiles["Service"] => {
  // A diff reads many entries of the same two packs: their directories are read once per source, not once per entry.
  const directories = new WeakMap<ByteSource, { readonly source: CountingSource; readonly directory: Promise<OpenedEntries | null> }>()
  const opened = (source: ByteSource) => {
    const known = directories.get(source)
    if (known !== undefined) return known
    const counting = new CountingSource(source)
    const fresh = { source: counting, directory: openEntries(counting) }
    // A failed read is not remembered: the next request tries again.
    fresh.directory.catch(() => directories.delete(source))
    directories.set(source, fresh)
    return fresh
  }
  return PackFiles.of({
    index: (source: ByteSource) => Effect.tryPromise({ try: () => orEmpty(() => indexPack(new CountingSource(source), newHash), []), catch: failure }),
    read: (source: ByteSource, path: string) =>
      Effect.tryPromise({
        try: () => {
          const pack = opened(source)
          return orEmpty(() => readPackFile(pack.source, path, pack.directory), null)
        },
        catch: failure,
      }).pipe(Effect.map(Option.fromNullishOr)),
    unifiedDiff,
  })
}

export const layerPackFiles: Layer.Layer<PackFiles> = Layer.sync(PackFiles, makePackFiles)
