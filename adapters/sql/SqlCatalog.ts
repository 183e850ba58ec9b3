// The public catalog's read side (ports/Catalog.ts): published games joined with the release their pointer names by
// primary key, in (first_published_at, id) descending order, read backwards on games_catalog_order (migration 0010).
// The search is a prefix range on games_search_name or on the slug's unique key.
import { Effect, Layer, Option } from "effect"
import type { Kysely } from "kysely"
import type { Dialect } from "./dialects/Dialect.ts"
import { type CatalogEntry, Catalog } from "../../ports/Catalog.ts"
import { afterPosition, prefixRange } from "./keyset.ts"
import type { Tables } from "./schema.ts"
import { SqlDatabase, type TimeCodec } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

const published = (db: Kysely<Tables>, from: "games" = "games") =>
  db.selectFrom(from)
    .innerJoin("releases", (join) => join.onRef("releases.game_id", "=", "games.id").onRef("releases.version", "=", "games.active_version"))
    .select([
      "games.id", "games.name", "games.slug", "games.kind", "games.first_published_at",
      "releases.version", "releases.sha256", "releases.size_bytes", "releases.reviewed_at",
    ])
    .where("games.active_version", "is not", null)
    .where("games.first_published_at", "is not", null)

type PublishedRow = Awaited<ReturnType<ReturnType<typeof published>["execute"]>>[number]

const toEntry = (time: TimeCodec) => (row: PublishedRow): CatalogEntry => ({
  gameId: row.id,
  name: row.name,
  slug: row.slug,
  kind: row.kind,
  firstPublishedAt: time.read(row.first_published_at!),
  activeVersion: row.version,
  sha256: row.sha256,
  sizeBytes: Number(row.size_bytes),
  activeSince: row.reviewed_at === null ? null : time.read(row.reviewed_at),
})

/** The catalog page statement, exported for the query-plan test. */
export const catalogPageQuery = (db: Kysely<Tables>, dialect: Dialect, query: Parameters<Catalog["Service"]["page"]>[0]) => {
  const time = dialect.time
  // Without a search, the first rows of games_catalog_order read backwards: a short index read on every table size.
  let select = published(db, query.prefix === null ? dialect.inIndexOrder("games", "games_catalog_order") : "games")
  if (query.prefix !== null) {
    const [from, below] = prefixRange(query.prefix)
    select = select.where((eb) =>
      eb.or([
        eb.and([eb("games.search_name", ">=", from), eb("games.search_name", "<", below)]),
        eb.and([eb("games.slug", ">=", from), eb("games.slug", "<", below)]),
      ])
    )
  }
  if (query.after !== null) {
    const position = afterPosition(
      [["games.first_published_at", time.write(query.after.firstPublishedAt)], ["games.id", query.after.gameId]],
      "desc",
      // A search's own index finds far fewer rows: the keyset condition must not steer the planner to the order's.
      query.prefix === null || !dialect.unaryPlusHidesIndex,
    )
    select = select.where(position)
  }
  return select.orderBy("games.first_published_at", "desc").orderBy("games.id", "desc").limit(query.limit)
}

/** The by-slug statement (exported for the query-plan test). */
export const bySlugQuery = (db: Kysely<Tables>, slug: string) => published(db).where("games.slug", "=", slug)

export const layerSqlCatalog = Layer.effect(
  Catalog,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { time } = database
    const entry = toEntry(time)
    return Catalog.of({
      page: (query) =>
        database.query("page of the catalog", (db) => catalogPageQuery(db, database.dialect, query).execute()).pipe(
          Effect.map((rows) => rows.map(entry)),
          orUnavailable,
        ),
      bySlug: (slug) =>
        database.query("published game by slug", (db) => bySlugQuery(db, slug).executeTakeFirst()).pipe(
          Effect.map((row) => (row === undefined ? Option.none() : Option.some(entry(row)))),
          orUnavailable,
        ),
    })
  }),
)
