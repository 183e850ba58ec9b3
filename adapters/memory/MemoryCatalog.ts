import { Effect, Layer, Option } from "effect"
import { searchKey } from "../../domain/game/searchKey.ts"
import type { CatalogKey } from "../../domain/paging/orders.ts"
import { Catalog, type CatalogEntry } from "../../ports/Catalog.ts"
import { releaseKey, type Tables, MemoryTables } from "./MemoryTables.ts"

const newestFirst = (a: CatalogEntry, b: CatalogEntry) =>
  b.firstPublishedAt.getTime() - a.firstPublishedAt.getTime() || (a.gameId < b.gameId ? 1 : a.gameId > b.gameId ? -1 : 0)

const isAfter = (key: CatalogKey | null) => (entry: CatalogEntry) =>
  key === null || newestFirst({ ...entry, firstPublishedAt: key.firstPublishedAt, gameId: key.gameId }, entry) < 0

/** Every published game: its pointer names a release. */
const publishedEntries = ({ games, releases, pointers }: Tables): Array<CatalogEntry> =>
  [...pointers].flatMap(([gameId, pointer]) => {
    const game = games.get(gameId)
    const active = pointer.activeVersion === null ? undefined : releases.get(releaseKey(gameId, pointer.activeVersion))
    if (game === undefined || active === undefined || pointer.firstPublishedAt === null) return []
    return [{
      gameId,
      name: game.name,
      slug: game.slug,
      kind: game.kind,
      firstPublishedAt: pointer.firstPublishedAt,
      activeVersion: active.version,
      sha256: active.sha256,
      sizeBytes: active.sizeBytes,
      activeSince: active.reviewedAt,
    }]
  })

export const layerMemoryCatalog = Layer.effect(
  Catalog,
  MemoryTables.useSync((tables) =>
    Catalog.of({
      page: ({ after, limit, prefix }) =>
        Effect.sync(() =>
          publishedEntries(tables)
            .filter((e) => prefix === null || searchKey(e.name).startsWith(prefix) || e.slug.startsWith(prefix))
            .filter(isAfter(after))
            .sort(newestFirst)
            .slice(0, limit)
        ),
      bySlug: (slug) => Effect.sync(() => Option.fromNullishOr(publishedEntries(tables).find((e) => e.slug === slug))),
    })
  ),
)
