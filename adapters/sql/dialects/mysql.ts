// MySQL 8 / MariaDB 10.11 through mysql2 (../mysql.ts opens the pool). Transactions run at READ COMMITTED and are
// retried after a deadlock; budget reservations lock one row per budget. mysql2 errors carry the server's `errno`, or a
// Node `code` when the connection itself failed.
import { type Kysely, sql } from "kysely"
import type { Tables } from "../schema.ts"
import type { Classified, SqlFailureKind } from "../SqlFailure.ts"
import type { Dialect } from "./Dialect.ts"

/** No store operation keeps a request waiting longer than this (MySQL's connect timeout is shorter). */
export const MYSQL_OPERATION_TIMEOUT_MS = 10_000

const ER_DUP_ENTRY = 1062
const ER_DUP_ENTRY_WITH_KEY_NAME = 1586
const KIND_BY_ERRNO: ReadonlyMap<number, SqlFailureKind> = new Map([
  [1216, "foreign_key_violation"], // ER_NO_REFERENCED_ROW
  [1217, "foreign_key_violation"], // ER_ROW_IS_REFERENCED
  [1451, "foreign_key_violation"], // ER_ROW_IS_REFERENCED_2
  [1452, "foreign_key_violation"], // ER_NO_REFERENCED_ROW_2
  [1205, "lock_conflict"], // ER_LOCK_WAIT_TIMEOUT
  [1213, "lock_conflict"], // ER_LOCK_DEADLOCK
  [1021, "disk_full"], // ER_DISK_FULL
  [1114, "disk_full"], // ER_RECORD_FILE_FULL
  [1040, "connection"], // ER_CON_COUNT_ERROR
  [1053, "connection"], // ER_SERVER_SHUTDOWN
  [1927, "connection"], // ER_CONNECTION_KILLED (MariaDB)
  [2002, "connection"], // CR_CONNECTION_ERROR
  [2003, "connection"], // CR_CONN_HOST_ERROR
  [2006, "connection"], // CR_SERVER_GONE_ERROR
  [2013, "connection"], // CR_SERVER_LOST
  [4031, "connection"], // ER_CLIENT_INTERACTION_TIMEOUT (MySQL 8)
])
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "PROTOCOL_CONNECTION_LOST",
  "PROTOCOL_SEQUENCE_TIMEOUT",
])
/** "Got error 28 from storage engine": the server's disk is full (errno 28 is ENOSPC). */
const STORAGE_ENGINE_ENOSPC = /\berror 28\b/

interface Mysql2Error {
  readonly errno?: unknown
  readonly code?: unknown
  readonly message?: unknown
  readonly fatal?: unknown
  readonly cause?: unknown
  readonly errors?: unknown
}

/** MariaDB: "… for key 'games_slug_unique'"; MySQL 8 prefixes the table: "… for key 'games.games_slug_unique'". */
const duplicateKeyOf = (message: string): string => /for key '(?:[^'.]+\.)?([^']+)'$/.exec(message)?.[1] ?? "unknown"

const classify = (error: unknown): Classified => {
  const e: Mysql2Error = typeof error === "object" && error !== null ? error : {}
  const message = typeof e.message === "string" ? e.message : ""
  if (e.errno === ER_DUP_ENTRY || e.errno === ER_DUP_ENTRY_WITH_KEY_NAME) return { kind: "unique_violation", constraint: duplicateKeyOf(message) }
  const byErrno = typeof e.errno === "number" ? KIND_BY_ERRNO.get(e.errno) : undefined
  if (byErrno !== undefined) return { kind: byErrno, constraint: null }
  if (e.errno === 1030 && STORAGE_ENGINE_ENOSPC.test(message)) return { kind: "disk_full", constraint: null }
  // mysql2 marks errors after which the connection is unusable as fatal.
  if ((typeof e.code === "string" && CONNECTION_CODES.has(e.code)) || e.fatal === true) return { kind: "connection", constraint: null }
  // A connect error can arrive wrapped (a pool's cause, or one error per address tried).
  const inner = [e.cause, ...(Array.isArray(e.errors) ? e.errors : [])].filter((x) => x !== undefined && x !== error)
  for (const cause of inner) if (classify(cause).kind === "connection") return { kind: "connection", constraint: null }
  return { kind: "other", constraint: null }
}

export const mysqlDialect: Dialect = {
  name: "mysql",
  // DATETIME(3) holds UTC Dates (mysql2 timezone "Z").
  time: { write: (date) => date, read: (value) => (value instanceof Date ? value : new Date(value)) },
  classify,
  begin: (db) => db.startTransaction().setIsolationLevel("read committed").execute(),
  operationTimeoutMs: MYSQL_OPERATION_TIMEOUT_MS,
  // InnoDB picks a deadlock victim and rolls it back: running it again is safe and usually succeeds.
  transactionAttempts: 4,
  upsert: (insert, _key, set) => insert.onDuplicateKeyUpdate(set),
  // A no-op update of the key instead of INSERT IGNORE, which would also turn a value that does not fit into a warning.
  insertUnlessExists: (insert, key) => insert.onDuplicateKeyUpdate({ [key[0]!]: sql.ref(key[0]!) } as never),
  // Created outside the transaction: concurrent first reservations then all wait on one existing row lock.
  prepareBudgetLock: async (db: Kysely<Tables>, { accountId, endpoint }) => {
    await mysqlDialect.insertUnlessExists(db.insertInto("budget_accounts").values({ account_id: accountId, endpoint }), ["account_id", "endpoint"]).execute()
  },
  lockBudget: async (trx: Kysely<Tables>, { accountId, endpoint }) => {
    await trx.selectFrom("budget_accounts").select("account_id").where("account_id", "=", accountId).where("endpoint", "=", endpoint).forUpdate().execute()
  },
  // utf8mb4_bin is a PAD SPACE collation: 'ann' = 'ann '. The plain comparison keeps the index; the bytes decide.
  sameText: (column, value) => sql<boolean>`(${sql.ref(column)} = ${value} and cast(${sql.ref(column)} as binary) = cast(${value} as binary))`,
  inIndexOrder: <T extends string>(table: T, index: string) => sql.raw(`${table} FORCE INDEX (${index})`) as unknown as T,
  unaryPlusHidesIndex: false,
  locksRowsForUpdate: true,
}
