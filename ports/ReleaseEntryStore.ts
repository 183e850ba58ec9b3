import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../domain/errors.ts"
import type { PackFileEntry } from "../domain/review/PackFile.ts"

export interface ReleaseEntries {
  readonly gameId: string
  readonly version: string
  /** Sorted by path. */
  readonly entries: ReadonlyArray<PackFileEntry>
  readonly computedAt: Date
}

/**
 * A release's entries with their hashes, computed on the first file listing or diff and kept with the release
 * (releases are immutable, so they never go stale). Saving again replaces the record.
 */
export class ReleaseEntryStore extends Context.Service<ReleaseEntryStore, {
  save(record: ReleaseEntries): Effect.Effect<void, Unavailable>
  get(gameId: string, version: string): Effect.Effect<Option.Option<ReleaseEntries>, Unavailable>
}>()("pckgate/ports/ReleaseEntryStore") {}
