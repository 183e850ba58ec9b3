// Browser sessions on the records' database (migration 0004). Ending a session deletes its row, so every instance's
// next read of it finds nothing; what an instance may keep in memory meanwhile is bounded in adapters/cache.
import { Effect, Layer, Option } from "effect"
import { type Kysely, type Selectable, sql } from "kysely"
import type { Session } from "../../domain/auth/Session.ts"
import { SessionStore } from "../../ports/SessionStore.ts"
import type { Tables, Timestamp } from "./schema.ts"
import { SqlDatabase, type TimeCodec } from "./SqlDatabase.ts"

export interface SessionsTable {
  id: string
  user_id: string
  created_at: Timestamp
  expires_at: Timestamp
  admin_until: Timestamp | null
}

/** Tables (schema.ts) belongs to the other stores; this store adds its own table to the type. */
const withSessions = (db: Kysely<Tables>): Kysely<Tables & { sessions: SessionsTable }> => db.$extendTables<{ sessions: SessionsTable }>()

const toSession = (row: Selectable<SessionsTable>, time: TimeCodec): Session => ({
  id: row.id,
  userId: row.user_id,
  createdAt: time.read(row.created_at),
  expiresAt: time.read(row.expires_at),
  adminUntil: row.admin_until === null ? null : time.read(row.admin_until),
})

export const layerSqlSessionStore = Layer.effect(
  SessionStore,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { time, flavor } = database
    const db = withSessions(database.db)
    // MySQL's utf8mb4_bin ignores trailing spaces in comparisons (PAD SPACE): 'ann' would also match 'ann '. User ids
    // are token subjects, equal only code unit for code unit, so MySQL also compares the bytes.
    const sameUser = (userId: string) =>
      db.deleteFrom("sessions").where("user_id", "=", userId)
        .$if(flavor === "mysql", (query) => query.where(sql<string>`cast(user_id as binary)`, "=", sql<string>`cast(${userId} as binary)`))

    return SessionStore.of({
      create: (session) =>
        database.run("create session", async () => {
          await sameUser(session.userId).where("expires_at", "<=", time.write(session.createdAt)).execute()
          await db.insertInto("sessions").values({
            id: session.id,
            user_id: session.userId,
            created_at: time.write(session.createdAt),
            expires_at: time.write(session.expiresAt),
            admin_until: session.adminUntil === null ? null : time.write(session.adminUntil),
          }).execute()
        }),
      get: (id) =>
        database.run("read session", async () => {
          const row = await db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst()
          return row === undefined ? Option.none() : Option.some(toSession(row, time))
        }),
      revoke: (id) =>
        database.run("end session", async () => {
          const result = await db.deleteFrom("sessions").where("id", "=", id).executeTakeFirst()
          return result.numDeletedRows > 0n
        }),
      revokeAllOf: (userId) =>
        database.run("end a user's sessions", async () => {
          const result = await sameUser(userId).executeTakeFirst()
          return Number(result.numDeletedRows)
        }),
    })
  }),
)
