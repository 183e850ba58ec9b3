import { Effect, Layer, Option } from "effect"
import { SlugTaken, VersionExists } from "../../domain/errors.ts"
import { SubmissionStore } from "../../ports/SubmissionStore.ts"
import { isUniqueViolation } from "./failures.ts"
import { gameRow, releaseRow } from "./rows.ts"
import { SqlDatabase } from "./SqlDatabase.ts"

const SLUG_KEY = { mysqlName: "games_slug_unique", sqliteColumns: "games.slug" }

export const layerSqlSubmissionStore = Layer.effect(
  SubmissionStore,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { db, time } = database
    return SubmissionStore.of({
      // One transaction: the game, the release, its scan and the submission are all written, or none is.
      commit: ({ game, newGame, release, submission, scan }) =>
        database.run(
          "commit submission",
          (signal) =>
            database.transaction(signal, async (trx) => {
              try {
                if (newGame) {
                  await trx.insertInto("games").values(gameRow(game, time)).execute()
                } else {
                  await trx.updateTable("games")
                    .set({ name: game.name, manifest_id: game.manifestId, updated_at: time.write(game.updatedAt) })
                    .where("id", "=", game.id)
                    .execute()
                }
              } catch (error) {
                if (isUniqueViolation(error, SLUG_KEY)) throw new SlugTaken({ slug: game.slug })
                // Another submission created a game with this manifest id meanwhile: this one lost the race.
                if (isUniqueViolation(error)) throw new VersionExists({ gameId: game.id, version: release.version })
                throw error
              }
              try {
                await trx.insertInto("releases").values(releaseRow(release, time)).execute()
              } catch (error) {
                throw isUniqueViolation(error) ? new VersionExists({ gameId: release.gameId, version: release.version }) : error
              }
              await trx.insertInto("scans").values({
                game_id: scan.gameId,
                version: scan.version,
                report: JSON.stringify(scan.report),
                scanned_at: time.write(scan.scannedAt),
              }).execute()
              await trx.insertInto("submissions").values({
                id: submission.id,
                game_id: submission.gameId,
                version: submission.version,
                created_by: submission.createdBy,
                created_at: time.write(submission.createdAt),
              }).execute()
            }),
          (error) => (error instanceof VersionExists || error instanceof SlugTaken ? error : undefined),
        ).pipe(Effect.asVoid),
      get: (id) =>
        database.run("get submission", () => db.selectFrom("submissions").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
          Effect.map((row) =>
            row === undefined
              ? Option.none()
              : Option.some({ id: row.id, gameId: row.game_id, version: row.version, createdBy: row.created_by, createdAt: time.read(row.created_at) })
          ),
        ),
    })
  }),
)
