// Browser sessions on the records' database (migration 0004). Ending a session deletes its row, so every instance's
// next read of it finds nothing; what an instance may keep in memory meanwhile is bounded in adapters/cache.
import { Effect, Layer, Option } from "effect"
import type { Kysely, Selectable } from "kysely"
import type { Session } from "../../domain/auth/Session.ts"
import { SessionStore } from "../../ports/SessionStore.ts"
import type { TimeCodec } from "./dialects/Dialect.ts"
import type { Tables, Timestamp } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

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
    const { dialect, time } = database
    const db = withSessions(database.db)
    // User ids are token subjects, equal only code unit for code unit (MySQL would also match 'ann ' for 'ann').
    const sameUser = (userId: string) => db.deleteFrom("sessions").where(dialect.sameText("user_id", userId))

    return SessionStore.of({
      create: (session) =>
        database.query("create session", async () => {
          await sameUser(session.userId).where("expires_at", "<=", time.write(session.createdAt)).execute()
          await db.insertInto("sessions").values({
            id: session.id,
            user_id: session.userId,
            created_at: time.write(session.createdAt),
            expires_at: time.write(session.expiresAt),
            admin_until: session.adminUntil === null ? null : time.write(session.adminUntil),
          }).execute()
        }).pipe(orUnavailable),
      get: (id) =>
        database.query("read session", () => db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
          Effect.map((row) => (row === undefined ? Option.none() : Option.some(toSession(row, time)))),
          orUnavailable,
        ),
      revoke: (id) =>
        database.query("end session", () => db.deleteFrom("sessions").where("id", "=", id).executeTakeFirst()).pipe(
          Effect.map((result) => result.numDeletedRows > 0n),
          orUnavailable,
        ),
      revokeAllOf: (userId) =>
        database.query("end a user's sessions", () => sameUser(userId).executeTakeFirst()).pipe(
          Effect.map((result) => Number(result.numDeletedRows)),
          orUnavailable,
        ),
    })
  }),
)
