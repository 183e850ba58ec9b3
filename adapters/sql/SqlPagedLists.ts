// Keyset pages of the review queue and of a creator's games (ports/PagedLists.ts), each one statement on an index
// whose columns are the list's order (migration 0010).
import { Effect, Layer } from "effect"
import type { Kysely } from "kysely"
import type { OwnerGamesKey, QueueKey } from "../../domain/paging/orders.ts"
import { PagedLists } from "../../ports/PagedLists.ts"
import { afterPosition } from "./keyset.ts"
import { gameFromRow, releaseFromRow } from "./rows.ts"
import type { Tables } from "./schema.ts"
import { SqlDatabase, type TimeCodec } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

/** The review queue's page statement (exported for the query-plan test). */
export const pendingPageQuery = (db: Kysely<Tables>, time: TimeCodec, after: QueueKey | null, limit: number) => {
  let query = db.selectFrom("releases").selectAll().where("status", "=", "pending_review")
  if (after !== null) {
    query = query.where(afterPosition([["created_at", time.write(after.createdAt)], ["game_id", after.gameId], ["version", after.version]], "asc"))
  }
  return query.orderBy("created_at").orderBy("game_id").orderBy("version").limit(limit)
}

/** An owner's games, one page (exported for the query-plan test). */
export const ownerGamesPageQuery = (db: Kysely<Tables>, time: TimeCodec, ownerId: string, after: OwnerGamesKey | null, limit: number) => {
  let query = db.selectFrom("games").selectAll().where("owner_id", "=", ownerId)
  if (after !== null) query = query.where(afterPosition([["created_at", time.write(after.createdAt)], ["id", after.gameId]], "asc"))
  return query.orderBy("created_at").orderBy("id").limit(limit)
}

export const layerSqlPagedLists = Layer.effect(
  PagedLists,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { time } = database
    return PagedLists.of({
      pendingReleases: (after, limit) =>
        database.query("page of the review queue", (db) => pendingPageQuery(db, time, after, limit).execute()).pipe(Effect.map((rows) => rows.map((row) => releaseFromRow(row, time))), orUnavailable),
      gamesOfOwner: (ownerId, after, limit) =>
        database.query("page of an owner's games", (db) => ownerGamesPageQuery(db, time, ownerId, after, limit).execute()).pipe(Effect.map((rows) => rows.map((row) => gameFromRow(row, time))), orUnavailable),
    })
  }),
)
