// Reading driver errors: which unique key a write collided with, and which failures are worth retrying.
// mysql2 errors carry `errno` (1062 = ER_DUP_ENTRY); node:sqlite errors carry `errcode` (extended result codes).

interface DriverError {
  readonly message?: unknown
  readonly errno?: unknown
  readonly errcode?: unknown
  readonly code?: unknown
}

const asDriverError = (error: unknown): DriverError => (typeof error === "object" && error !== null ? error : {})

const SQLITE_CONSTRAINT_PRIMARYKEY = 1555
const SQLITE_CONSTRAINT_UNIQUE = 2067
const ER_DUP_ENTRY = 1062
const ER_LOCK_WAIT_TIMEOUT = 1205
const ER_LOCK_DEADLOCK = 1213

/** A named unique key: MySQL reports the key name, SQLite the columns (`UNIQUE constraint failed: games.slug`). */
export interface UniqueKey {
  readonly mysqlName: string
  readonly sqliteColumns: string
}

/** True when `error` is a unique violation on `key` (any unique key when `key` is omitted). */
export const isUniqueViolation = (error: unknown, key?: UniqueKey): boolean => {
  const e = asDriverError(error)
  const message = typeof e.message === "string" ? e.message : ""
  if (e.errno === ER_DUP_ENTRY) {
    // MariaDB: "... for key 'games_slug_unique'"; MySQL 8: "... for key 'games.games_slug_unique'".
    return key === undefined || new RegExp(`for key '(?:\\w+\\.)?${key.mysqlName}'$`).test(message)
  }
  if (e.errcode === SQLITE_CONSTRAINT_UNIQUE || e.errcode === SQLITE_CONSTRAINT_PRIMARYKEY) {
    return key === undefined || message.endsWith(`constraint failed: ${key.sqliteColumns}`)
  }
  return false
}

/** Deadlocks and lock-wait timeouts roll the transaction back; running it again is safe. */
export const isRetryableConflict = (error: unknown): boolean => {
  const { errno } = asDriverError(error)
  return errno === ER_LOCK_DEADLOCK || errno === ER_LOCK_WAIT_TIMEOUT
}

/** A short description of a driver failure for logs, with every secret replaced: never the password. */
export const describeFailure = (error: unknown, secrets: ReadonlyArray<string>): string => {
  const e = asDriverError(error)
  const code = typeof e.code === "string" ? `${e.code}: ` : ""
  let text = `${code}${typeof e.message === "string" && e.message !== "" ? e.message : String(error)}`.slice(0, 500)
  for (const secret of secrets) if (secret !== "") text = text.split(secret).join("***")
  return text
}

const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "PROTOCOL_CONNECTION_LOST"])
const ER_CON_COUNT_ERROR = 1040
const SQLITE_BUSY = 5

/** The database could not be reached or was busy (worth waiting for at start-up), as opposed to a wrong schema or query. */
export const isConnectionFailure = (error: unknown): boolean => {
  const e = asDriverError(error)
  if (typeof e.code === "string" && CONNECTION_CODES.has(e.code)) return true
  if (e.errno === ER_CON_COUNT_ERROR || e.errcode === SQLITE_BUSY) return true
  const cause = (error as { readonly cause?: unknown } | null)?.cause
  return cause !== undefined && cause !== error && isConnectionFailure(cause)
}
