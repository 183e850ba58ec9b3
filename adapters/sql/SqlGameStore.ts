import { appendTimelineEvent } from "./SqlTimeline.ts"
import { Effect, Layer, Option } from "effect"
import type { Selectable } from "kysely"
import { SlugTaken } from "../../domain/errors.ts"
import type { Game } from "../../domain/game/Game.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { gameFromRow, gameRow } from "./rows.ts"
import type { GamesTable } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"
import { UNIQUE_KEYS } from "./uniqueKeys.ts"

/** Ids per `IN (…)` list, well under every dialect's parameter limit. */
const IDS_PER_QUERY = 500

/**
 * The smallest string greater than every string that starts with `prefix`, for an exact, index-friendly prefix range.
 * (SQLite's LIKE ignores ASCII case; a range compares exactly under both BINARY and utf8mb4_bin.)
 */
const prefixUpperBound = (prefix: string): string =>
  prefix.slice(0, -1) + String.fromCodePoint(prefix.codePointAt(prefix.length - 1)! + 1)

export const layerSqlGameStore = Layer.effect(
  GameStore,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { time } = database
    const toGame = (row: Selectable<GamesTable>): Game => gameFromRow(row, time)
    const oneGame = (row: Selectable<GamesTable> | undefined) => (row === undefined ? Option.none() : Option.some(toGame(row)))

    return GameStore.of({
      // A transaction, so that a caller who gave up on a stalled database never sees the game appear afterwards.
      insert: (game, actor) =>
        database.transaction("insert game", (tx) =>
          tx.run(async (trx) => {
            await trx.insertInto("games").values(gameRow(game, time)).execute()
            await appendTimelineEvent(trx, time, { gameId: game.id, version: null, kind: "game_created", actor, reason: null, at: game.createdAt })
          })).pipe(
          Effect.catchTag("SqlFailure", (failure) =>
            Effect.fail(failure.violates(UNIQUE_KEYS.gameSlug.name) ? new SlugTaken({ slug: game.slug }) : failure.unavailable)),
          Effect.asVoid,
        ),
      get: (id) =>
        database.query("get game", (db) => db.selectFrom("games").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
          Effect.map(oneGame),
          orUnavailable,
        ),
      getMany: (ids) =>
        Effect.forEach(
          Array.from({ length: Math.ceil(ids.length / IDS_PER_QUERY) }, (_, i) => ids.slice(i * IDS_PER_QUERY, (i + 1) * IDS_PER_QUERY)),
          (chunk) => database.query("get games", (db) => db.selectFrom("games").selectAll().where("id", "in", chunk).execute()),
        ).pipe(Effect.map((chunks) => chunks.flat().map(toGame)), orUnavailable),
      slugsStartingWith: (prefix) =>
        database.query("list slugs", (db) =>
          prefix === ""
            ? db.selectFrom("games").select("slug").execute()
            : db.selectFrom("games").select("slug").where("slug", ">=", prefix).where("slug", "<", prefixUpperBound(prefix)).execute()).pipe(
          Effect.map((rows) => rows.map((r) => r.slug)),
          orUnavailable,
        ),
      findByManifestId: (manifestId) =>
        database.query("find game by manifest id", (db) => db.selectFrom("games").selectAll().where("manifest_id", "=", manifestId).executeTakeFirst())
          .pipe(Effect.map(oneGame), orUnavailable),
      listByOwner: (ownerId) =>
        database.query("list games by owner", (db) =>
          db.selectFrom("games").selectAll().where("owner_id", "=", ownerId).orderBy("created_at").orderBy("id").execute()).pipe(
          Effect.map((rows) => rows.map(toGame)),
          orUnavailable,
        ),
    })
  }),
)
