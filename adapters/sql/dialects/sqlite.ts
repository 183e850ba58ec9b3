// SQLite through node:sqlite (../sqlite.ts opens it). One writer at a time: every transaction begins IMMEDIATE, which
// is also what serialises budget reservations; node:sqlite errors carry the extended result code in `errcode`.
import { type Kysely, sql } from "kysely"
import type { Tables } from "../schema.ts"
import type { Classified } from "../SqlFailure.ts"
import { PRIMARY_KEY, UNIQUE_KEYS } from "../uniqueKeys.ts"
import type { Dialect } from "./Dialect.ts"

const SQLITE_CONSTRAINT_PRIMARYKEY = 1555
const SQLITE_CONSTRAINT_UNIQUE = 2067
const SQLITE_CONSTRAINT_FOREIGNKEY = 787
// Primary result codes (the low byte of an extended code).
const SQLITE_BUSY = 5
const SQLITE_LOCKED = 6
const SQLITE_FULL = 13
const SQLITE_CANTOPEN = 14

const KEY_BY_COLUMNS: ReadonlyMap<string, string> = new Map(Object.values(UNIQUE_KEYS).map((key) => [key.columns, key.name]))
const UNIQUE_PREFIX = "UNIQUE constraint failed: "

/** SQLite names the columns of the key; the name is MySQL's when the schema names that key, else the columns. */
const uniqueKeyOf = (message: string): string => {
  const columns = message.startsWith(UNIQUE_PREFIX) ? message.slice(UNIQUE_PREFIX.length) : message
  return KEY_BY_COLUMNS.get(columns) ?? columns
}

const classify = (error: unknown): Classified => {
  const { errcode, message } = (typeof error === "object" && error !== null ? error : {}) as { errcode?: unknown; message?: unknown }
  if (typeof errcode !== "number") return { kind: "other", constraint: null }
  if (errcode === SQLITE_CONSTRAINT_PRIMARYKEY) return { kind: "unique_violation", constraint: PRIMARY_KEY }
  if (errcode === SQLITE_CONSTRAINT_UNIQUE) return { kind: "unique_violation", constraint: uniqueKeyOf(typeof message === "string" ? message : "") }
  if (errcode === SQLITE_CONSTRAINT_FOREIGNKEY) return { kind: "foreign_key_violation", constraint: null }
  switch (errcode & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return { kind: "lock_conflict", constraint: null }
    case SQLITE_FULL:
      return { kind: "disk_full", constraint: null }
    case SQLITE_CANTOPEN:
      return { kind: "connection", constraint: null }
    default:
      return { kind: "other", constraint: null }
  }
}

export const sqliteDialect: Dialect = {
  name: "sqlite",
  // Fixed-width ISO-8601 text: text order is time order.
  time: { write: (date) => date.toISOString(), read: (value) => (value instanceof Date ? value : new Date(value)) },
  classify,
  // The driver begins IMMEDIATE (../sqlite.ts): the write lock is taken up front, so a second writer waits.
  begin: (db) => db.startTransaction().execute(),
  // Calls are synchronous: they block the event loop and cannot be timed out; lock waits end at the busy timeout.
  operationTimeoutMs: null,
  // A lock conflict has already waited the whole busy timeout: running again would only wait again.
  transactionAttempts: 1,
  // The same values as MySQL's update; Kysely types ON CONFLICT's side with an extra `excluded` table.
  upsert: (insert, key, set) => insert.onConflict((conflict) => conflict.columns(key).doUpdateSet(set as never)),
  insertUnlessExists: (insert, key) => insert.onConflict((conflict) => conflict.columns(key).doNothing()),
  // `begin immediate` already serialises every writer.
  prepareBudgetLock: async (_db: Kysely<Tables>) => undefined,
  lockBudget: async (_trx: Kysely<Tables>) => undefined,
  sameText: (column, value) => sql<boolean>`${sql.ref(column)} = ${value}`,
  inIndexOrder: (table) => table,
  unaryPlusHidesIndex: true,
  locksRowsForUpdate: false,
}
