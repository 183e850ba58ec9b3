// API keys on the records' database (migration 0009). Every use reads the row by its hash (unique key), so a
// revocation stored by one instance refuses the key on all of them from then on.
import { Effect, Layer, Option } from "effect"
import type { Kysely, Selectable } from "kysely"
import type { ApiKey } from "../../domain/credentials/ApiKey.ts"
import type { CredentialGames, CredentialScope } from "../../domain/credentials/Credential.ts"
import { ApiKeyStore } from "../../ports/ApiKeyStore.ts"
import type { TimeCodec } from "./dialects/Dialect.ts"
import type { Tables, Timestamp } from "./schema.ts"
import { writeCredentialRecord } from "./sqlCredentialRecord.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

export interface ApiKeysTable {
  id: string
  owner_id: string
  name: string
  prefix: string
  key_hash: string
  /** JSON: "all" or an array of game ids. */
  games: string
  /** JSON array of scopes. */
  scopes: string
  created_at: Timestamp
  expires_at: Timestamp | null
  revoked_at: Timestamp | null
  last_used_at: Timestamp | null
}

/** The name of the per-owner lock row that creations take (budget_accounts holds one row per account and lock name). */
const API_KEY_LIMIT_LOCK = "api_keys"

const withApiKeys = (db: Kysely<Tables>): Kysely<Tables & { api_keys: ApiKeysTable }> => db.$extendTables<{ api_keys: ApiKeysTable }>()

const orNull = (value: Date | string | null, time: TimeCodec) => (value === null ? null : time.read(value))

const toApiKey = (row: Selectable<ApiKeysTable>, time: TimeCodec): ApiKey => ({
  id: row.id,
  ownerId: row.owner_id,
  name: row.name,
  prefix: row.prefix,
  keyHash: row.key_hash,
  games: JSON.parse(row.games) as CredentialGames,
  scopes: JSON.parse(row.scopes) as ReadonlyArray<CredentialScope>,
  createdAt: time.read(row.created_at),
  expiresAt: orNull(row.expires_at, time),
  revokedAt: orNull(row.revoked_at, time),
  lastUsedAt: orNull(row.last_used_at, time),
})

export const layerSqlApiKeyStore = Layer.effect(
  ApiKeyStore,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { dialect, time } = database
    const db = withApiKeys(database.db)
    const write = (date: Date | null) => (date === null ? null : time.write(date))

    return ApiKeyStore.of({
      // The key and its timeline events and webhook deliveries commit together. Concurrent creations of one owner
      // serialise on the owner's account lock (the budgets' lock row, under a name of its own; SQLite transactions hold
      // the write lock), so they cannot pass the limit together: at READ COMMITTED a first key finds no row to lock.
      create: (key, limit, record) => {
        const lock = { accountId: key.ownerId, endpoint: API_KEY_LIMIT_LOCK }
        const countThenCreate = database.transaction("create API key", (tx) =>
          tx.run(async (raw) => {
            await dialect.lockBudget(raw, lock)
            const trx = withApiKeys(raw)
            const live = await trx.selectFrom("api_keys").select("id").where(dialect.sameText("owner_id", key.ownerId)).where("revoked_at", "is", null)
              .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", time.write(key.createdAt))])).execute()
            if (live.length >= limit) return false
            await trx.insertInto("api_keys").values({
              id: key.id,
              owner_id: key.ownerId,
              name: key.name,
              prefix: key.prefix,
              key_hash: key.keyHash,
              games: JSON.stringify(key.games),
              scopes: JSON.stringify(key.scopes),
              created_at: time.write(key.createdAt),
              expires_at: write(key.expiresAt),
              revoked_at: write(key.revokedAt),
              last_used_at: write(key.lastUsedAt),
            }).execute()
            await writeCredentialRecord(raw, time, record)
            return true
          }))
        return database.query("prepare the API key limit lock", (db) => dialect.prepareBudgetLock(db, lock)).pipe(Effect.andThen(countThenCreate), orUnavailable)
      },
      findByHash: (keyHash) =>
        database.query("read API key", () => db.selectFrom("api_keys").selectAll().where("key_hash", "=", keyHash).executeTakeFirst()).pipe(
          Effect.map((row) => (row === undefined ? Option.none() : Option.some(toApiKey(row, time)))),
          orUnavailable,
        ),
      listByOwner: (ownerId) =>
        database.query("list API keys", () =>
          db.selectFrom("api_keys").selectAll().where(dialect.sameText("owner_id", ownerId)).orderBy("created_at", "desc").orderBy("id", "desc")
            .execute()).pipe(Effect.map((rows) => rows.map((row) => toApiKey(row, time))), orUnavailable),
      revoke: (ownerId, id, at, record) =>
        database.transaction("revoke API key", (tx) =>
          tx.run(async (raw) => {
            const result = await withApiKeys(raw).updateTable("api_keys").set({ revoked_at: time.write(at) }).where("id", "=", id)
              .where(dialect.sameText("owner_id", ownerId)).where("revoked_at", "is", null).executeTakeFirst()
            if (result.numUpdatedRows === 0n) return false
            await writeCredentialRecord(raw, time, record)
            return true
          })).pipe(orUnavailable),
      touch: (id, at, unlessSince) =>
        database.query("note API key use", () =>
          db.updateTable("api_keys").set({ last_used_at: time.write(at) }).where("id", "=", id)
            .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", time.write(unlessSince))])).execute()).pipe(
            Effect.asVoid,
            orUnavailable,
          ),
    })
  }),
)
