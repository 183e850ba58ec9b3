import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../domain/errors.ts"
import type { CatalogKey } from "../domain/paging/orders.ts"

/** A published game as the public catalog shows it: the game, its active release, and when it was first published. */
export interface CatalogEntry {
  readonly gameId: string
  readonly name: string
  readonly slug: string
  readonly kind: string
  readonly firstPublishedAt: Date
  readonly activeVersion: string
  readonly sha256: string
  readonly sizeBytes: number
  /** When the active release was approved. */
  readonly activeSince: Date | null
}

/** One page's worth of the catalog: after a position, at most `limit` entries, optionally only a search's matches. */
export interface CatalogQuery {
  readonly after: CatalogKey | null
  readonly limit: number
  /** A search key (domain/game/searchKey.ts): only games whose search name or slug starts with it; null for all. */
  readonly prefix: string | null
}

/**
 * The public catalog's read side: games that are published (their pointer names an active release), newest first
 * publication first, then game id descending. A game keeps its place when its active release changes (an update or a
 * rollback): the order is by first publication, which never moves. Every read is one indexed statement.
 */
export class Catalog extends Context.Service<Catalog, {
  page(query: CatalogQuery): Effect.Effect<ReadonlyArray<CatalogEntry>, Unavailable>
  /** The published game with this slug; none for an unknown slug or a game that is not published. */
  bySlug(slug: string): Effect.Effect<Option.Option<CatalogEntry>, Unavailable>
}>()("pckgate/ports/Catalog") {}
