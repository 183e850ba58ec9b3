// The read side download-url and the catalog use (ports/GameViews.ts), each answer one statement.
import { Effect, Layer, Option } from "effect"
import type { Selectable } from "kysely"
import { GameViews } from "../../ports/GameViews.ts"
import { releaseFromRow } from "./rows.ts"
import type { ReleasesTable } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

export const layerSqlGameViews = Layer.effect(
  GameViews,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { time } = database
    return GameViews.of({
      // The game row left-joined with the release its pointer names, so a game without one still yields its row.
      view: (gameId) =>
        database.query("read the game and its active release", (db) =>
          db.selectFrom("games")
            .leftJoin("releases", (join) => join.onRef("releases.game_id", "=", "games.id").onRef("releases.version", "=", "games.active_version"))
            .select(["games.id as view_game_id", "games.owner_id as view_owner_id", "games.slug as view_slug"])
            .selectAll("releases")
            .where("games.id", "=", gameId)
            .executeTakeFirst()).pipe(
            Effect.map((row) =>
              row === undefined ? Option.none() : Option.some({
                gameId: row.view_game_id,
                ownerId: row.view_owner_id,
                slug: row.view_slug,
                active: row.game_id === null ? null : releaseFromRow(row as Selectable<ReleasesTable>, time),
              })
            ),
            orUnavailable,
          ),
      // One row per game that has a pointer.
      listActive: () =>
        database.query("list active releases", (db) =>
          db.selectFrom("games")
            .innerJoin("releases", (join) => join.onRef("releases.game_id", "=", "games.id").onRef("releases.version", "=", "games.active_version"))
            .selectAll("releases")
            .execute()).pipe(
            Effect.map((rows) => rows.map((row) => releaseFromRow(row, time))),
            orUnavailable,
          ),
    })
  }),
)
