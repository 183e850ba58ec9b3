import { Data, Effect, Layer, Option } from "effect"
import { SlugTaken, VersionExists } from "../../domain/errors.ts"
import { SubmissionStore } from "../../ports/SubmissionStore.ts"
import { isUniqueViolation, type UniqueKey } from "./failures.ts"
import { gameRow, releaseRow } from "./rows.ts"
import { SqlDatabase } from "./SqlDatabase.ts"

const SLUG_KEY: UniqueKey = { mysqlName: "games_slug_unique", sqliteColumns: "games.slug" }
/** Migration 0002's unique index on games.manifest_id. */
const MANIFEST_ID_KEY: UniqueKey = { mysqlName: "games_manifest_id_unique", sqliteColumns: "games.manifest_id" }

/** Thrown inside the transaction to roll it back; the commit then reports "manifest_id_taken". */
class ManifestIdTaken extends Data.TaggedError("ManifestIdTaken")<{}> {}

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
                // Another submission created a game with this manifest id meanwhile: this one lost the race.
                if (isUniqueViolation(error, MANIFEST_ID_KEY)) throw new ManifestIdTaken()
                if (isUniqueViolation(error, SLUG_KEY)) {
                  // A racer with the same name usually took both keys, and which one a database names is its own
                  // choice: a slug retry could not help, so the manifest id decides. The other writer has committed
                  // by now (InnoDB waits for it before reporting the duplicate; SQLite writers run one at a time).
                  const owner = game.manifestId === null ? undefined : await trx.selectFrom("games").select("id")
                    .where("manifest_id", "=", game.manifestId).executeTakeFirst()
                  throw owner === undefined ? new SlugTaken({ slug: game.slug }) : new ManifestIdTaken()
                }
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
          (error) => (error instanceof VersionExists || error instanceof SlugTaken || error instanceof ManifestIdTaken ? error : undefined),
        ).pipe(
          Effect.as("committed" as const),
          Effect.catchTag("ManifestIdTaken", () => Effect.succeed("manifest_id_taken" as const)),
        ),
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
