// Keyset pages of the review queue and of a creator's games (ports/PagedLists.ts), each one statement on an index
// whose columns are the list's order (migration 0010).
import { Effect, Layer } from "effect"
import { PagedLists } from "../../ports/PagedLists.ts"
import { afterPosition } from "./keyset.ts"
import { gameFromRow, releaseFromRow } from "./rows.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

export const layerSqlPagedLists = Layer.effect(
  PagedLists,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { time } = database
    return PagedLists.of({
      pendingReleases: (after, limit) =>
        database.query("page of the review queue", (db) => {
          let query = db.selectFrom("releases").selectAll().where("status", "=", "pending_review")
          if (after !== null) {
            query = query.where(afterPosition([["created_at", time.write(after.createdAt)], ["game_id", after.gameId], ["version", after.version]], "asc"))
          }
          return query.orderBy("created_at").orderBy("game_id").orderBy("version").limit(limit).execute()
        }).pipe(Effect.map((rows) => rows.map((row) => releaseFromRow(row, time))), orUnavailable),
      gamesOfOwner: (ownerId, after, limit) =>
        database.query("page of an owner's games", (db) => {
          let query = db.selectFrom("games").selectAll().where("owner_id", "=", ownerId)
          if (after !== null) query = query.where(afterPosition([["created_at", time.write(after.createdAt)], ["id", after.gameId]], "asc"))
          return query.orderBy("created_at").orderBy("id").limit(limit).execute()
        }).pipe(Effect.map((rows) => rows.map((row) => gameFromRow(row, time))), orUnavailable),
    })
  }),
)
