import { appendTimelineEvent } from "./SqlTimeline.ts"
import { Data, Effect, Layer, Option } from "effect"
import { SlugTaken, VersionExists } from "../../domain/errors.ts"
import type { Game } from "../../domain/game/Game.ts"
import { searchKey } from "../../domain/game/searchKey.ts"
import { SubmissionStore } from "../../ports/SubmissionStore.ts"
import { gameRow, releaseRow } from "./rows.ts"
import { scanCountColumns } from "./scanColumns.ts"
import { appendChange } from "./SqlChangeFeed.ts"
import { SqlDatabase, type SqlTransaction } from "./SqlDatabase.ts"
import { orUnavailable, type SqlFailure } from "./SqlFailure.ts"
import { PRIMARY_KEY, UNIQUE_KEYS } from "./uniqueKeys.ts"

/** Fails the transaction (rolling it back); the commit then reports "manifest_id_taken". */
class ManifestIdTaken extends Data.TaggedError("ManifestIdTaken")<{}> {}

export const layerSqlSubmissionStore = Layer.effect(
  SubmissionStore,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { dialect, time } = database

    /** Writing the game collided with a unique key: which game-level outcome that is. */
    const gameKeyTaken = (tx: SqlTransaction, game: Game, failure: SqlFailure) =>
      Effect.gen(function*() {
        // Another submission created a game with this manifest id meanwhile: this one lost the race.
        if (failure.violates(UNIQUE_KEYS.gameManifestId.name)) return yield* new ManifestIdTaken()
        if (!failure.violates(UNIQUE_KEYS.gameSlug.name)) return yield* failure
        // A racer with the same name usually took both keys, and which one a database names is its own choice: a slug
        // retry could not help, so the manifest id decides. The other writer has committed by now (InnoDB waits for it
        // before reporting the duplicate; SQLite writers run one at a time).
        const owner = game.manifestId === null ? undefined : yield* tx.run((trx) =>
          trx.selectFrom("games").select("id").where("manifest_id", "=", game.manifestId).executeTakeFirst()
        )
        return yield* (owner === undefined ? new SlugTaken({ slug: game.slug }) : new ManifestIdTaken())
      })

    return SubmissionStore.of({
      // One transaction: the game, the release, its scan and the submission are all written, or none is.
      commit: ({ game, newGame, release, submission, scan, actor: credentialActor }) =>
        database.transaction("commit submission", (tx) =>
          Effect.gen(function*() {
            // An update may rename the game: the name it had, read under the row's lock, decides the feed entry below.
            const before = newGame ? undefined : yield* tx.run((trx) =>
              trx.selectFrom("games").select("name").where("id", "=", game.id).$if(dialect.locksRowsForUpdate, (q) => q.forUpdate()).executeTakeFirst()
            )
            yield* tx.run((trx): Promise<unknown> =>
              newGame
                ? trx.insertInto("games").values(gameRow(game, time)).execute()
                : trx.updateTable("games")
                  .set({ name: game.name, search_name: searchKey(game.name), manifest_id: game.manifestId, updated_at: time.write(game.updatedAt) })
                  .where("id", "=", game.id)
                  .execute()
            ).pipe(Effect.catchTag("SqlFailure", (failure) => gameKeyTaken(tx, game, failure)))
            yield* tx.run((trx) => trx.insertInto("releases").values(releaseRow(release, time)).execute()).pipe(
              Effect.catchTag("SqlFailure", (failure) =>
                Effect.fail(failure.violates(PRIMARY_KEY) ? new VersionExists({ gameId: release.gameId, version: release.version }) : failure)),
            )
            yield* tx.run(async (trx) => {
              await trx.insertInto("scans").values({
                game_id: scan.gameId,
                version: scan.version,
                report: JSON.stringify(scan.report),
                scanned_at: time.write(scan.scannedAt),
                ...scanCountColumns(scan.report),
              }).execute()
              await trx.insertInto("submissions").values({
                id: submission.id,
                game_id: submission.gameId,
                version: submission.version,
                created_by: submission.createdBy,
                created_at: time.write(submission.createdAt),
              }).execute()
              const actor = credentialActor ?? (`user:${submission.createdBy}` as const)
              if (newGame) await appendTimelineEvent(trx, time, { gameId: game.id, version: null, kind: "game_created", actor, reason: null, at: game.createdAt })
              await appendTimelineEvent(trx, time, { gameId: game.id, version: submission.version, kind: "submitted", actor, reason: null, at: submission.createdAt })
              await appendTimelineEvent(trx, time, { gameId: game.id, version: scan.version, kind: "scanned", actor: "system", reason: null, at: scan.scannedAt })
            })
            // The catalog's pages and search show the name: every instance forgets them (last statement: SqlChangeFeed.ts).
            if (before !== undefined && before.name !== game.name) {
              yield* tx.run((trx) => appendChange(trx, time, { gameId: game.id, kind: "renamed", at: game.updatedAt }))
              return "renamed" as const
            }
            return "committed" as const
          })).pipe(
            Effect.catchTag("ManifestIdTaken", () => Effect.succeed("manifest_id_taken" as const)),
            orUnavailable,
          ),
      get: (id) =>
        database.query("get submission", (db) => db.selectFrom("submissions").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
          Effect.map((row) =>
            row === undefined
              ? Option.none()
              : Option.some({ id: row.id, gameId: row.game_id, version: row.version, createdBy: row.created_by, createdAt: time.read(row.created_at) })
          ),
          orUnavailable,
        ),
    })
  }),
)
