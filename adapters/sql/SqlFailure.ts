// The one typed failure of the SQL boundary. A driver error is classified once, by its dialect (dialects/sqlite.ts,
// dialects/mysql.ts), as effect's own `sql/SqlError.ts` does; stores then decide with `Effect.catchTag("SqlFailure")`
// which failures are domain errors (a unique key that means "slug taken") and let `orUnavailable` turn the rest into
// the ports' Unavailable("database").
import { Data, Effect } from "effect"
import { Unavailable } from "../../domain/errors.ts"

export type SqlFailureKind =
  /** A unique key (named by `constraint`) already holds the value. */
  | "unique_violation"
  /** A referenced row is missing, or a referencing row exists. */
  | "foreign_key_violation"
  /** Deadlock, lock wait timeout, SQLITE_BUSY/LOCKED: the transaction was rolled back and may succeed when run again. */
  | "lock_conflict"
  /** Refused, lost, timed out, too many connections, or no answer within the operation's time. */
  | "connection"
  /** SQLITE_FULL, ER_RECORD_FILE_FULL, ER_DISK_FULL. */
  | "disk_full"
  | "other"

/** What a dialect reads from a driver error. */
export interface Classified {
  readonly kind: SqlFailureKind
  /** The violated key as MySQL names it ("games_slug_unique", "PRIMARY"); null unless `kind` is unique_violation. */
  readonly constraint: string | null
}

export class SqlFailure extends Data.TaggedError("SqlFailure")<{
  readonly kind: SqlFailureKind
  readonly constraint: string | null
  /** The store operation that failed ("finalize release"). */
  readonly operation: string
  /** The driver's code and message with every secret replaced: safe for logs. */
  readonly detail: string
}> {
  override get message(): string {
    return `${this.operation}: ${this.kind}: ${this.detail}`
  }

  /** True for a unique violation of `key` (a name from uniqueKeys.ts). */
  violates(key: string): boolean {
    return this.kind === "unique_violation" && this.constraint === key
  }

  get unavailable(): Unavailable {
    return new Unavailable({ dependency: "database", reason: this.message })
  }
}

const isSqlFailure = <E>(error: E): error is Extract<E, SqlFailure> => error instanceof SqlFailure

/** Every SQL failure a store did not turn into a domain error is the ports' Unavailable("database"). */
export const orUnavailable = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlFailure> | Unavailable, R> =>
  // TypeScript cannot simplify what catchIf leaves of a generic E; the cast states it.
  Effect.catchIf(self, isSqlFailure, (failure) => Effect.fail(failure.unavailable)) as Effect.Effect<A, Exclude<E, SqlFailure> | Unavailable, R>

interface DriverError {
  readonly message?: unknown
  readonly code?: unknown
}

/** A short description of a driver failure for logs, with every secret replaced: never the password. */
export const describeDriverError = (error: unknown, secrets: ReadonlyArray<string>): string => {
  const e: DriverError = typeof error === "object" && error !== null ? error : {}
  const code = typeof e.code === "string" ? `${e.code}: ` : ""
  let text = `${code}${typeof e.message === "string" && e.message !== "" ? e.message : String(error)}`.slice(0, 500)
  for (const secret of secrets) if (secret !== "") text = text.split(secret).join("***")
  return text
}
