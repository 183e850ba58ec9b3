import { Effect, Layer, Option } from "effect"
import type { Kysely, Selectable } from "kysely"
import { NoUploadIntent, ReleaseNotPending, VersionExists } from "../../domain/errors.ts"
import type { Release, UploadDeclaration, UploadIntent } from "../../domain/release/Release.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { isUniqueViolation } from "./failures.ts"
import { releaseFromRow, releaseRow } from "./rows.ts"
import type { ReleasesTable, Tables, UploadIntentsTable } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"

const KEYS_PER_QUERY = 500

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/** Domain errors a store operation throws on purpose (to roll its transaction back) pass through unchanged. */
const finalizeRefusal = (error: unknown) => (error instanceof VersionExists || error instanceof NoUploadIntent ? error : undefined)
const reviewRefusal = (error: unknown) => (error instanceof ReleaseNotPending ? error : undefined)

export const layerSqlReleaseStore = Layer.effect(
  ReleaseStore,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { db, time, flavor } = database

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
    })

    const intentsDeclaring = (d: UploadDeclaration, from: Kysely<Tables> = db) =>
      from.selectFrom("upload_intents").selectAll()
        .where("game_id", "=", d.gameId)
        .where("version", "=", d.version)
        .where("sha256", "=", d.sha256)
        .where("size_bytes", "=", d.sizeBytes)
        .where("content_type", "=", d.contentType)
    // Oldest first, ties by game and version: the order every listing shares with the memory store.
    const releasesInOrder = () => db.selectFrom("releases").selectAll().orderBy("created_at").orderBy("game_id").orderBy("version")
    const listReleases = (what: string, query: ReturnType<typeof releasesInOrder>) =>
      database.run(what, () => query.execute()).pipe(Effect.map((rows) => rows.map(toRelease)))

    /**
     * One row per game (of `gameIds`, or every game): the newest approval, ranked in the database (window functions:
     * MySQL 8, MariaDB 10.2, SQLite 3.25).
     */
    const activeReleases = (what: string, gameIds: ReadonlyArray<string> | null) =>
      database.run(what, () =>
        db.selectFrom((eb) => {
          const approved = eb.selectFrom("releases").selectAll()
            .select((inner) =>
              inner.fn.agg<number>("row_number").over((over) =>
                over.partitionBy("game_id").orderBy("reviewed_at", "desc").orderBy("created_at", "desc").orderBy("version", "desc")
              ).as("newest")
            )
            .where("status", "=", "approved")
          return (gameIds === null ? approved : approved.where("game_id", "in", gameIds)).as("ranked")
        }).selectAll().where("newest", "=", 1).execute()).pipe(Effect.map((rows) => rows.map(toRelease)))

    return ReleaseStore.of({
      // One row per declaration (a unique key): an upsert refreshes the expiry of the existing intent.
      recordIntent: (intent) =>
        database.run("record upload intent", (signal) =>
          database.transaction(signal, async (trx) => {
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
            })
            const refresh = { expires_at: time.write(intent.expiresAt) }
            await (flavor === "mysql"
              ? insert.onDuplicateKeyUpdate(refresh)
              : insert.onConflict((oc) => oc.columns(["game_id", "version", "sha256", "size_bytes", "content_type"]).doUpdateSet(refresh))
            ).execute()
            return toIntent(await intentsDeclaring(intent, trx).executeTakeFirstOrThrow())
          })),
      findIntent: (declaration, now) =>
        database.run("find upload intent", () =>
          intentsDeclaring(declaration).where("expires_at", ">", time.write(now)).executeTakeFirst()).pipe(
          Effect.map((row) => (row === undefined ? Option.none() : Option.some(toIntent(row)))),
        ),
      // The release insert and the intent consumption commit together or not at all.
      finalize: (intentId, release) =>
        database.run(
          "finalize release",
          async (signal) => {
            await database.transaction(signal, async (trx) => {
              try {
                await trx.insertInto("releases").values(releaseRow(release, time)).execute()
              } catch (error) {
                throw isUniqueViolation(error) ? new VersionExists({ gameId: release.gameId, version: release.version }) : error
              }
              const consumed = await trx.deleteFrom("upload_intents").where("id", "=", intentId).executeTakeFirst()
              if (consumed.numDeletedRows === 0n) throw new NoUploadIntent({ gameId: release.gameId, version: release.version })
              await database.pause("finalize:before-commit")
            })
            await database.pause("finalize:after-commit")
            return release
          },
          finalizeRefusal,
        ),
      get: (gameId, version) =>
        database.run("get release", () =>
          db.selectFrom("releases").selectAll().where("game_id", "=", gameId).where("version", "=", version).executeTakeFirst()).pipe(
          Effect.map((row) => (row === undefined ? Option.none() : Option.some(toRelease(row)))),
        ),
      listByGame: (gameId) => listReleases("list releases of game", releasesInOrder().where("game_id", "=", gameId)),
      listPending: () => listReleases("list pending releases", releasesInOrder().where("status", "=", "pending_review")),
      listApproved: () => listReleases("list approved releases", releasesInOrder().where("status", "=", "approved")),
      // One statement: the game row left-joined with its approved releases, newest approval first (the domain's
      // activeRelease order), so a game without one still yields its row with empty release columns.
      gameView: (gameId) =>
        database.run("read the game and its active release", () =>
          db.selectFrom("games")
            .leftJoin("releases", (join) => join.onRef("releases.game_id", "=", "games.id").on("releases.status", "=", "approved"))
            .select(["games.id as view_game_id", "games.owner_id as view_owner_id", "games.slug as view_slug"])
            .selectAll("releases")
            .where("games.id", "=", gameId)
            .orderBy("releases.reviewed_at", "desc").orderBy("releases.created_at", "desc").orderBy("releases.version", "desc")
            .limit(1)
            .executeTakeFirst()).pipe(Effect.map((row) =>
            row === undefined ? Option.none() : Option.some({
              gameId: row.view_game_id,
              ownerId: row.view_owner_id,
              slug: row.view_slug,
              active: row.game_id === null ? null : toRelease(row as Selectable<ReleasesTable>),
            })
          )),
      listActive: () => activeReleases("list active releases", null),
      activeReleasesOf: (gameIds) => (gameIds.length === 0 ? Effect.succeed([]) : activeReleases("read active releases", gameIds)),
      // Compare-and-set: the update applies only while the release is still pending.
      review: (gameId, version, decision) =>
        database.run(
          "review release",
          (signal) =>
            database.transaction(signal, async (trx) => {
              const updated = await trx.updateTable("releases")
                .set({
                  status: decision.status,
                  reviewed_by: decision.by,
                  reviewed_at: time.write(decision.at),
                  rejection_reason: decision.reason,
                })
                .where("game_id", "=", gameId)
                .where("version", "=", version)
                .where("status", "=", "pending_review")
                .executeTakeFirst()
              const row = await trx.selectFrom("releases").selectAll().where("game_id", "=", gameId).where("version", "=", version).executeTakeFirst()
              if (updated.numUpdatedRows === 0n || row === undefined) {
                throw new ReleaseNotPending({ gameId, version, status: row?.status ?? "missing" })
              }
              return toRelease(row)
            }),
          reviewRefusal,
        ),
      deleteExpiredIntents: (now) =>
        database.run("delete expired intents", () => db.deleteFrom("upload_intents").where("expires_at", "<=", time.write(now)).executeTakeFirst()).pipe(
          Effect.map((result) => Number(result.numDeletedRows)),
        ),
      // One statement per chunk, so releases and intents are read from the same snapshot.
      keysInUse: (objectKeys, now) =>
        Effect.forEach(chunks(objectKeys, KEYS_PER_QUERY), (keys) =>
          database.run("find object keys in use", () =>
            db.selectFrom("releases").select("object_key").where("object_key", "in", keys)
              .union(
                db.selectFrom("upload_intents").select("object_key").where("object_key", "in", keys).where("expires_at", ">", time.write(now)),
              )
              .execute())).pipe(Effect.map((results) => new Set(results.flat().map((r) => r.object_key)))),
    })
  }),
)
