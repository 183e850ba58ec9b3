import type { Actor } from "../../domain/auth/Actor.ts"
import { appendTimelineEvent } from "./SqlTimeline.ts"
import { Effect, Layer, Option } from "effect"
import type { Kysely, NotNull, Selectable } from "kysely"
import { NoUploadIntent, ReleaseNotPending, VersionExists } from "../../domain/errors.ts"
import { DEFAULT_PUBLISH_MODE, type PublishMode } from "../../domain/release/Release.ts"
import type { Release, UploadDeclaration, UploadIntent } from "../../domain/release/Release.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { applyLifecycleSql } from "./sqlLifecycle.ts"
import { releaseFromRow, releaseRow } from "./rows.ts"
import type { ReleasesTable, Tables, UploadIntentsTable } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"
import { PRIMARY_KEY } from "./uniqueKeys.ts"
import { reviewStep } from "../shared/lifecycleSteps.ts"

const KEYS_PER_QUERY = 500

/** The transaction names fault tests pause in (test/support/pausingDatabase.ts). */
export const FINALIZE_RELEASE = "finalize release"

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/** The queue estimate's decisions: the `limit` latest, read backwards from the end of releases_by_decision (0011). */
export const recentDecisionsQuery = (db: Kysely<Tables>, limit: number) =>
  db.selectFrom("releases").select(["created_at", "reviewed_at"]).where("reviewed_at", "is not", null).orderBy("reviewed_at", "desc").limit(limit)

export const layerSqlReleaseStore = Layer.effect(
  ReleaseStore,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { db, dialect, time } = database

    const toRelease = (row: Selectable<ReleasesTable>): Release => releaseFromRow(row, time)
    const toIntent = (row: Selectable<UploadIntentsTable>): UploadIntent => ({
      id: row.id,
      gameId: row.game_id,
      version: row.version,
      sha256: row.sha256,
      sizeBytes: Number(row.size_bytes),
      contentType: row.content_type,
      objectKey: row.object_key,
      createdBy: row.created_by,
      createdAt: time.read(row.created_at),
      expiresAt: time.read(row.expires_at),
      publishMode: row.publish_mode as PublishMode,
    })

    const intentsDeclaring = (d: UploadDeclaration, from: Kysely<Tables> = db) =>
      from.selectFrom("upload_intents").selectAll()
        .where("game_id", "=", d.gameId)
        .where("version", "=", d.version)
        .where("sha256", "=", d.sha256)
        .where("size_bytes", "=", d.sizeBytes)
        .where("content_type", "=", d.contentType)
        .where("publish_mode", "=", d.publishMode ?? DEFAULT_PUBLISH_MODE)
    // Oldest first, ties by game and version: the order every listing shares with the memory store.
    const releasesInOrder = () => db.selectFrom("releases").selectAll().orderBy("created_at").orderBy("game_id").orderBy("version")
    const listReleases = (operation: string, query: ReturnType<typeof releasesInOrder>) =>
      database.query(operation, () => query.execute()).pipe(Effect.map((rows) => rows.map(toRelease)), orUnavailable)

    return ReleaseStore.of({
      // One row per declaration (a unique key): an upsert refreshes the expiry of the existing intent.
      recordIntent: (intent, actor) =>
        database.transaction("record upload intent", (tx) =>
          tx.run(async (trx) => {
            const insert = trx.insertInto("upload_intents").values({
              id: intent.id,
              game_id: intent.gameId,
              version: intent.version,
              sha256: intent.sha256,
              size_bytes: intent.sizeBytes,
              content_type: intent.contentType,
              object_key: intent.objectKey,
              created_by: intent.createdBy,
              created_at: time.write(intent.createdAt),
              expires_at: time.write(intent.expiresAt),
              publish_mode: intent.publishMode ?? DEFAULT_PUBLISH_MODE,
            })
            const declaration = ["game_id", "version", "sha256", "size_bytes", "content_type"] as const
            // Asking again with another publish mode replaces it: finalize must then repeat the newer one.
            await dialect.upsert(insert, declaration, { expires_at: time.write(intent.expiresAt), publish_mode: intent.publishMode ?? DEFAULT_PUBLISH_MODE }).execute()
            await appendTimelineEvent(trx, time, {
              gameId: intent.gameId, version: intent.version, kind: "upload_url_issued", actor: actor ?? `user:${intent.createdBy}`, reason: null, at: intent.createdAt,
            })
            return toIntent(await intentsDeclaring(intent, trx).executeTakeFirstOrThrow())
          })).pipe(orUnavailable),
      findIntent: (declaration, now) =>
        database.query("find upload intent", () => intentsDeclaring(declaration).where("expires_at", ">", time.write(now)).executeTakeFirst()).pipe(
          Effect.map((row) => (row === undefined ? Option.none() : Option.some(toIntent(row)))),
          orUnavailable,
        ),
      // The release insert and the intent consumption commit together or not at all.
      finalize: (intentId, release, actor) =>
        database.transaction(FINALIZE_RELEASE, (tx) =>
          Effect.gen(function*() {
            yield* tx.run((trx) => trx.insertInto("releases").values(releaseRow(release, time)).execute()).pipe(
              Effect.catchTag("SqlFailure", (failure) =>
                Effect.fail(failure.violates(PRIMARY_KEY) ? new VersionExists({ gameId: release.gameId, version: release.version }) : failure)),
            )
            const consumed = yield* tx.run((trx) => trx.deleteFrom("upload_intents").where("id", "=", intentId).executeTakeFirst())
            if (consumed.numDeletedRows === 0n) return yield* new NoUploadIntent({ gameId: release.gameId, version: release.version })
            yield* tx.run((trx) =>
              appendTimelineEvent(trx, time, {
                gameId: release.gameId, version: release.version, kind: "finalized", actor: actor ?? `user:${release.createdBy}`, reason: null, at: release.createdAt,
              })
            )
            return release
          })).pipe(orUnavailable),
      get: (gameId, version) =>
        database.query("get release", () =>
          db.selectFrom("releases").selectAll().where("game_id", "=", gameId).where("version", "=", version).executeTakeFirst()).pipe(
          Effect.map((row) => (row === undefined ? Option.none() : Option.some(toRelease(row)))),
          orUnavailable,
        ),
      listByGame: (gameId) => listReleases("list releases of game", releasesInOrder().where("game_id", "=", gameId)),
      listPending: () => listReleases("list pending releases", releasesInOrder().where("status", "=", "pending_review")),
      listApproved: () => listReleases("list approved releases", releasesInOrder().where("status", "=", "approved")),
      // Compare-and-set through the lifecycle plan: the decision applies only while the release is still pending.
      review: (gameId, version, decision) =>
        applyLifecycleSql(database, gameId, reviewStep(version, decision)).pipe(
          Effect.map((outcome) => outcome.updated[0]!),
          Effect.catchTag("LifecycleRefused", (refused) => Effect.fail(new ReleaseNotPending({ gameId, version, status: refused.status, operation: "review" }))),
        // No lease is given, so none can be lost.
        Effect.catchTag("LifecycleLeaseLost", (lost) => Effect.die(lost)),
          orUnavailable,
        ),
      lifecycle: (gameId, step, lease) => applyLifecycleSql(database, gameId, step, lease).pipe(orUnavailable),
      recentDecisions: (limit) =>
        database.query("read recent review decisions", () => recentDecisionsQuery(db, limit).execute()).pipe(
            Effect.map((rows) => rows.map((row) => ({ submittedAt: time.read(row.created_at), decidedAt: time.read(row.reviewed_at!) }))),
            orUnavailable,
          ),
      activeVersion: (gameId) =>
        database.query("read a game's active version", () => db.selectFrom("games").select("active_version").where("id", "=", gameId).executeTakeFirst()).pipe(
          Effect.map((row) => row?.active_version ?? null),
          orUnavailable,
        ),
      // One conditional UPDATE of the game's row: atomic on both databases, whoever runs it at the same time.
      takeLifecycleLease: (gameId, holder, now, until) =>
        database.query("take a game's lifecycle lease", () =>
          db.updateTable("games").set({ lifecycle_holder: holder, lifecycle_until: time.write(until) }).where("id", "=", gameId)
            .where((eb) => eb.or([eb("lifecycle_holder", "is", null), eb("lifecycle_holder", "=", holder), eb("lifecycle_until", "<=", time.write(now))]))
            .executeTakeFirst()).pipe(Effect.map((result) => Number(result.numUpdatedRows) === 1), orUnavailable),
      renewLifecycleLease: (gameId, holder, now, until) =>
        database.query("renew a game's lifecycle lease", () =>
          db.updateTable("games").set({ lifecycle_until: time.write(until) }).where("id", "=", gameId)
            .where("lifecycle_holder", "=", holder).where("lifecycle_until", ">", time.write(now))
            .executeTakeFirst()).pipe(Effect.map((result) => Number(result.numUpdatedRows) === 1), orUnavailable),
      dropLifecycleLease: (gameId, holder) =>
        database.query("drop a game's lifecycle lease", () =>
          db.updateTable("games").set({ lifecycle_holder: null, lifecycle_until: null }).where("id", "=", gameId).where("lifecycle_holder", "=", holder)
            .execute()).pipe(Effect.asVoid, orUnavailable),
      deleteExpiredIntents: (now) =>
        database.query("delete expired intents", () => db.deleteFrom("upload_intents").where("expires_at", "<=", time.write(now)).executeTakeFirst()).pipe(
          Effect.map((result) => Number(result.numDeletedRows)),
          orUnavailable,
        ),
      // One statement per chunk, so releases and intents are read from the same snapshot.
      keysInUse: (objectKeys, now) =>
        Effect.forEach(chunks(objectKeys, KEYS_PER_QUERY), (keys) =>
          database.query("find object keys in use", () =>
            db.selectFrom("releases").select("object_key").where("object_key", "in", keys)
              .union(db.selectFrom("releases").select("quarantine_key as object_key").where("quarantine_key", "in", keys).$narrowType<{ object_key: NotNull }>())
              .union(
                db.selectFrom("upload_intents").select("object_key").where("object_key", "in", keys).where("expires_at", ">", time.write(now)),
              )
              .execute())).pipe(Effect.map((results) => new Set(results.flat().map((r) => r.object_key))), orUnavailable),
    })
  }),
)
