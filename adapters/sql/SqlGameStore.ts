import { Effect, Layer, Option } from "effect"
import type { Selectable } from "kysely"
import { SlugTaken } from "../../domain/errors.ts"
import type { Game } from "../../domain/game/Game.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { isUniqueViolation } from "./failures.ts"
import { gameRow } from "./rows.ts"
import type { GamesTable } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"

const SLUG_KEY = { mysqlName: "games_slug_unique", sqliteColumns: "games.slug" }
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
    const { db, time } = database
    const toGame = (row: Selectable<GamesTable>): Game => ({
      id: row.id,
      name: row.name,
      slug: row.slug,
      kind: row.kind,
      ownerId: row.owner_id,
      manifestId: row.manifest_id,
      createdAt: time.read(row.created_at),
      updatedAt: time.read(row.updated_at),
    })

    return GameStore.of({
      insert: (game) =>
        database.run(
          "insert game",
          (signal) =>
            database.transaction(signal, (trx) => trx.insertInto("games").values(gameRow(game, time)).execute()),
          (error) => (isUniqueViolation(error, SLUG_KEY) ? new SlugTaken({ slug: game.slug }) : undefined),
        ).pipe(Effect.asVoid),
      get: (id) =>
        database.run("get game", () => db.selectFrom("games").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
          Effect.map((row) => (row === undefined ? Option.none() : Option.some(toGame(row)))),
        ),
      getMany: (ids) =>
        Effect.forEach(
          Array.from({ length: Math.ceil(ids.length / IDS_PER_QUERY) }, (_, i) => ids.slice(i * IDS_PER_QUERY, (i + 1) * IDS_PER_QUERY)),
          (chunk) => database.run("get games", () => db.selectFrom("games").selectAll().where("id", "in", chunk).execute()),
        ).pipe(Effect.map((chunks) => chunks.flat().map(toGame))),
      slugsStartingWith: (prefix) =>
        database.run("list slugs", () =>
          prefix === ""
            ? db.selectFrom("games").select("slug").execute()
            : db.selectFrom("games").select("slug").where("slug", ">=", prefix).where("slug", "<", prefixUpperBound(prefix)).execute()).pipe(
          Effect.map((rows) => rows.map((r) => r.slug)),
        ),
      findByManifestId: (manifestId) =>
        database.run("find game by manifest id", () => db.selectFrom("games").selectAll().where("manifest_id", "=", manifestId).executeTakeFirst()).pipe(
          Effect.map((row) => (row === undefined ? Option.none() : Option.some(toGame(row)))),
        ),
      listByOwner: (ownerId) =>
        database.run("list games by owner", () =>
          db.selectFrom("games").selectAll().where("owner_id", "=", ownerId).orderBy("created_at").orderBy("id").execute()).pipe(
          Effect.map((rows) => rows.map(toGame)),
        ),
    })
  }),
)
