// Store-scale data written with bulk INSERTs straight into the tables (not through the API or the stores): published
// games with approved releases and their pointer, plus pending releases for the review queue. For the query-plan
// test and the catalog benchmark.
import { type Kysely, sql } from "kysely"
import type { Insertable } from "kysely"
import { searchKey } from "../../domain/game/searchKey.ts"
import { releaseObjectKey } from "../../domain/release/ObjectKey.ts"
import type { GamesTable, ReleasesTable, Tables } from "../../adapters/sql/schema.ts"
import type { TimeCodec } from "../../adapters/sql/SqlDatabase.ts"

export interface CatalogSeed {
  /** Published games (each with `releasesPerGame` approved releases, the newest active). */
  readonly games: number
  readonly releasesPerGame: number
  /** Pending releases, spread over the games (the review queue). */
  readonly pending: number
  /** Owners the games are spread over. */
  readonly owners?: number
}

const ROWS_PER_INSERT = 500
const BASE = Date.UTC(2025, 0, 1)

export const seedGameId = (n: number) => `gm_seed${String(n).padStart(6, "0")}`
export const seedSlug = (n: number) => `seed-game-${n}`
export const seedOwner = (n: number, owners: number) => `seed-owner-${n % owners}`

const inChunks = async <R>(rows: ReadonlyArray<R>, insert: (chunk: ReadonlyArray<R>) => Promise<unknown>) => {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await insert(rows.slice(i, i + ROWS_PER_INSERT))
}

export const seedCatalog = async (db: Kysely<Tables>, time: TimeCodec, seed: CatalogSeed): Promise<void> => {
  const owners = seed.owners ?? 100
  const at = (ms: number) => time.write(new Date(BASE + ms))
  const games: Array<Insertable<GamesTable>> = []
  const releases: Array<Insertable<ReleasesTable>> = []
  const release = (n: number, version: string, status: string, createdMs: number, reviewedMs: number | null): Insertable<ReleasesTable> => {
    const sha256 = (n * 1000 + releases.length).toString(16).padStart(64, "0")
    return {
      game_id: seedGameId(n), version, sha256, size_bytes: 4096 + n, content_type: "application/octet-stream",
      object_key: releaseObjectKey(seedGameId(n), version, sha256), source: "release_api", status,
      created_by: seedOwner(n, owners), created_at: at(createdMs), reviewed_by: reviewedMs === null ? null : "seed-admin",
      reviewed_at: reviewedMs === null ? null : at(reviewedMs), rejection_reason: null,
    }
  }
  for (let n = 0; n < seed.games; n++) {
    const name = `Seed Game ${n} ${["Alpha", "Beta", "Gamma", "Delta"][n % 4]}`
    const firstPublishedMs = n * 60_000 + 1
    games.push({
      id: seedGameId(n), name, search_name: searchKey(name), slug: seedSlug(n), kind: "engine", owner_id: seedOwner(n, owners),
      manifest_id: null, created_at: at(n * 60_000), updated_at: at(n * 60_000),
      active_version: `1.${seed.releasesPerGame - 1}.0`, first_published_at: at(firstPublishedMs),
    })
    for (let r = 0; r < seed.releasesPerGame; r++) releases.push(release(n, `1.${r}.0`, "approved", n * 60_000 + r, firstPublishedMs + r))
  }
  for (let p = 0; p < seed.pending; p++) {
    const n = p % seed.games
    releases.push(release(n, `9.${Math.floor(p / seed.games)}.${p}`, "pending_review", 10 * 365 * 86_400_000 + p * 1000, null))
  }
  await inChunks(games, (chunk) => db.insertInto("games").values([...chunk]).execute())
  await inChunks(releases, (chunk) => db.insertInto("releases").values([...chunk]).execute())
}

/** Fresh statistics, so the planners choose as they would on a long-running store. */
export const analyze = async (db: Kysely<Tables>, flavor: "sqlite" | "mysql") => {
  if (flavor === "sqlite") await sql`ANALYZE`.execute(db)
  else await sql`ANALYZE TABLE games, releases`.execute(db)
}
