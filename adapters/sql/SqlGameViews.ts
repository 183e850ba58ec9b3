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
      // The game row left-joined with its approved releases, newest approval first (the domain's activeRelease
      // order), so a game without one still yields its row with empty release columns.
      view: (gameId) =>
        database.query("read the game and its active release", (db) =>
          db.selectFrom("games")
            .leftJoin("releases", (join) => join.onRef("releases.game_id", "=", "games.id").on("releases.status", "=", "approved"))
            .select(["games.id as view_game_id", "games.owner_id as view_owner_id", "games.slug as view_slug"])
            .selectAll("releases")
            .where("games.id", "=", gameId)
            .orderBy("releases.reviewed_at", "desc").orderBy("releases.created_at", "desc").orderBy("releases.version", "desc")
            .limit(1)
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
      // One row per game: the newest approval, ranked in the database (window functions: MySQL 8, MariaDB 10.2,
      // SQLite 3.25).
      listActive: () =>
        database.query("list active releases", (db) =>
          db.selectFrom((eb) =>
            eb.selectFrom("releases").selectAll()
              .select((inner) =>
                inner.fn.agg<number>("row_number").over((over) =>
                  over.partitionBy("game_id").orderBy("reviewed_at", "desc").orderBy("created_at", "desc").orderBy("version", "desc")
                ).as("newest")
              )
              .where("status", "=", "approved")
              .as("ranked")
          ).selectAll().where("newest", "=", 1).execute()).pipe(
            Effect.map((rows) => rows.map((row) => releaseFromRow(row, time))),
            orUnavailable,
          ),
    })
  }),
)
