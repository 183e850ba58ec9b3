// One open database (SQLite file or MySQL pool) shared by the SQL stores, with the few things they need: its dialect,
// statements as Effects that fail with a classified SqlFailure, write transactions as Effects, and a bound on how long
// any of it may wait.
import { Context, Effect, Exit, Layer, Schedule } from "effect"
import type { ControlledTransaction, Kysely, Transaction } from "kysely"
import type { Dialect, TimeCodec } from "./dialects/Dialect.ts"
import { MYSQL_OPERATION_TIMEOUT_MS, mysqlDialect } from "./dialects/mysql.ts"
import { sqliteDialect } from "./dialects/sqlite.ts"
import { migrateToLatest } from "./migrate.ts"
import { describeMysqlTarget, openMysql, parseMysqlUrl } from "./mysql.ts"
import type { Tables } from "./schema.ts"
import { describeDriverError, SqlFailure } from "./SqlFailure.ts"
import { openSqlite } from "./sqlite.ts"

/** No database call keeps a request waiting longer than this (SQLite's busy timeout and MySQL's connect timeout are shorter). */
export const OPERATION_TIMEOUT_MS = MYSQL_OPERATION_TIMEOUT_MS
/** A database that is not reachable yet at start-up (a container starting alongside) gets this long. */
const STARTUP_ATTEMPTS = 20
/** Between two runs of a transaction that lost a deadlock: a little longer each time, jittered so racers part. */
const conflictBackoffMs = (attempt: number) => 5 * attempt + Math.floor(Math.random() * 10)

/**
 * Waits in real time, not on the program's Clock: the database releases its locks in real time, and a test's
 * TestClock must not hold a real database's retry forever.
 */
const realTimeDelay = (ms: number) =>
  Effect.callback<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), ms)
    return Effect.sync(() => clearTimeout(timer))
  })

export type { TimeCodec } from "./dialects/Dialect.ts"

export type SqlTarget = { readonly kind: "sqlite"; readonly path: string } | { readonly kind: "mysql"; readonly url: string }

export interface SqlDatabaseOptions {
  readonly target: SqlTarget
}

/** The statements of one transaction. */
export interface SqlTransaction {
  /** Runs statements inside the transaction; a driver error fails with a SqlFailure, and the transaction rolls back. */
  run<A>(statements: (trx: Transaction<Tables>) => Promise<A>): Effect.Effect<A, SqlFailure>
}

export class SqlDatabase extends Context.Service<SqlDatabase, {
  readonly db: Kysely<Tables>
  readonly dialect: Dialect
  /** The dialect's time codec (kept at hand: every store converts timestamps). */
  readonly time: TimeCodec
  /** Where the records are, without secrets. */
  readonly description: string
  /** Migrations this process applied when it opened the database. */
  readonly migrated: ReadonlyArray<string>
  /** Statements outside a transaction (reads, single writes), bounded in time like every operation. */
  query<A>(operation: string, statements: (db: Kysely<Tables>) => Promise<A>): Effect.Effect<A, SqlFailure>
  /**
   * A write transaction: committed when `body` succeeds, rolled back when it fails (with a domain error or a
   * SqlFailure) or is interrupted. A caller that gave up (the operation's timeout) is never committed for afterwards,
   * even when the database resumes. Deadlocks run it again (MySQL); `body` may therefore run more than once.
   */
  transaction<A, E, R>(operation: string, body: (tx: SqlTransaction) => Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlFailure, R>
  /** Bounds `effect`, made of several queries or transactions, by one operation's time, as if it were one. */
  within<A, E, R>(operation: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlFailure, R>
}>()("pckgate/adapters/sql/SqlDatabase") {}

interface Opened {
  readonly db: Kysely<Tables>
  readonly dialect: Dialect
  readonly description: string
  readonly secrets: ReadonlyArray<string>
}

const open = async (target: SqlTarget): Promise<Opened> => {
  if (target.kind === "sqlite") return { db: openSqlite(target.path), dialect: sqliteDialect, description: `SQLite ${target.path} (WAL)`, secrets: [] }
  const parsed = parseMysqlUrl(target.url)
  if ("error" in parsed) throw new Error(parsed.error)
  return { db: await openMysql(parsed), dialect: mysqlDialect, description: describeMysqlTarget(parsed), secrets: [parsed.password, target.url] }
}

/** A bug (a TypeError from our own code, a wrong parameter type) is a defect, never "the database is down". */
const isProgrammingError = (error: unknown): boolean =>
  error instanceof TypeError || error instanceof ReferenceError || error instanceof SyntaxError || error instanceof RangeError

/** Ends a transaction nobody waits for; a rollback that fails (the connection died) has ended it too. */
const rollbackInBackground = (trx: ControlledTransaction<Tables>) => void trx.rollback().execute().catch(() => undefined)

const makeService = (opened: Opened, migrated: ReadonlyArray<string>): SqlDatabase["Service"] => {
  const { db, dialect, secrets } = opened
  const failure = (operation: string, error: unknown) =>
    new SqlFailure({ ...dialect.classify(error), operation, detail: describeDriverError(error, secrets) })
  const failed = (operation: string, error: unknown) => (isProgrammingError(error) ? Effect.die(error) : Effect.fail(failure(operation, error)))
  // Every statement passes here, so it is a bare callback: no AbortController per call as with tryPromise (neither
  // driver can cancel a query anyway; an interrupted caller simply stops waiting for it).
  const driverCall = <A>(operation: string, call: () => Promise<A>): Effect.Effect<A, SqlFailure> =>
    Effect.callback<A, SqlFailure>((resume) => {
      try {
        call().then((value) => resume(Effect.succeed(value)), (error) => resume(failed(operation, error)))
      } catch (error) {
        resume(failed(operation, error))
      }
    })
  const timeoutMs = dialect.operationTimeoutMs
  const bounded = <A, E, R>(operation: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlFailure, R> =>
    timeoutMs === null ? effect : effect.pipe(
      Effect.timeoutOrElse({
        duration: timeoutMs,
        orElse: () => Effect.fail(new SqlFailure({ kind: "connection", constraint: null, operation, detail: `no answer within ${timeoutMs} ms` })),
      }),
    )

  // Interruptible while the database is slow to hand out a connection; a transaction that begins after its caller
  // left is rolled back at once, so it never holds a connection or a lock.
  const begin = (operation: string) =>
    Effect.callback<ControlledTransaction<Tables>, SqlFailure>((resume) => {
      let callerLeft = false
      dialect.begin(db).then(
        (trx) => (callerLeft ? rollbackInBackground(trx) : resume(Effect.succeed(trx))),
        (error) => resume(failed(operation, error)),
      )
      return Effect.sync(() => {
        callerLeft = true
      })
    })

  const transactionOnce = <A, E, R>(operation: string, body: (tx: SqlTransaction) => Effect.Effect<A, E, R>) =>
    Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(restore(begin(operation)), (trx) => {
        const tx: SqlTransaction = { run: (statements) => driverCall(operation, () => statements(trx)) }
        const commit = driverCall(operation, () => trx.commit().execute())
        return Effect.flatMap(Effect.exit(restore(Effect.flatMap(body(tx), (result) => Effect.as(commit, result)))), (exit) => {
          if (Exit.isSuccess(exit)) return exit
          // A caller that gave up is not kept waiting for the rollback (the database may be the reason it gave up);
          // any other failure waits for it, so what the caller does next finds the locks released.
          if (Exit.hasInterrupts(exit)) {
            rollbackInBackground(trx)
            return exit
          }
          return Effect.andThen(restore(Effect.promise(() => trx.rollback().execute().catch(() => undefined))), exit)
        })
      })
    )

  const isLockConflict = (error: unknown) => error instanceof SqlFailure && error.kind === "lock_conflict"
  const transactionAttempt = <A, E, R>(
    operation: string,
    body: (tx: SqlTransaction) => Effect.Effect<A, E, R>,
    attempt: number,
  ): Effect.Effect<A, E | SqlFailure, R> =>
    attempt >= dialect.transactionAttempts ? transactionOnce(operation, body) : transactionOnce(operation, body).pipe(
      Effect.catchIf(
        isLockConflict,
        () => realTimeDelay(conflictBackoffMs(attempt)).pipe(Effect.andThen(transactionAttempt(operation, body, attempt + 1))),
      ),
    )

  return SqlDatabase.of({
    db,
    dialect,
    time: dialect.time,
    description: opened.description,
    migrated,
    query: (operation, statements) => bounded(operation, driverCall(operation, () => statements(db))),
    transaction: (operation, body) => bounded(operation, transactionAttempt(operation, body, 1)),
    within: bounded,
  })
}

/** Worth waiting for at start-up: the database is not reachable yet, or another instance holds it while migrating. */
const isTransient = (dialect: Dialect, error: unknown): boolean =>
  [error, (error as { readonly cause?: unknown } | null)?.cause].some((e) => {
    const { kind } = dialect.classify(e)
    return kind === "connection" || kind === "lock_conflict"
  })

/** Opens the database and applies pending migrations, waiting a while for a database that is still starting. */
const openAndMigrate = (options: SqlDatabaseOptions) =>
  Effect.gen(function*() {
    const opened = yield* Effect.tryPromise({
      try: () => open(options.target),
      catch: (error) => new SqlFailure({ kind: "other", constraint: null, operation: "open the records", detail: describeDriverError(error, []) }),
    })
    const migrated = yield* Effect.tryPromise({
      try: () => migrateToLatest(opened.db, opened.dialect.name),
      catch: (error) => error,
    }).pipe(
      Effect.retry({ schedule: Schedule.spaced("1 second"), times: STARTUP_ATTEMPTS, while: (error) => isTransient(opened.dialect, error) }),
      Effect.catch((error) =>
        Effect.promise(() => opened.db.destroy().catch(() => undefined)).pipe(
          Effect.andThen(Effect.fail(
            new SqlFailure({
              ...opened.dialect.classify(error),
              operation: `opening ${opened.description}`,
              detail: describeDriverError(error, opened.secrets),
            }),
          )),
        )
      ),
    )
    return makeService(opened, migrated)
  })

/**
 * The open database for the layer's lifetime: migrated on acquisition, closed (pool ended, file closed) on release.
 * Failing to open it is Unavailable("database"), as every store operation's failure is.
 */
export const layerSqlDatabase = (options: SqlDatabaseOptions) =>
  Layer.effect(
    SqlDatabase,
    Effect.acquireRelease(
      openAndMigrate(options).pipe(Effect.mapError((failure) => failure.unavailable)),
      (database) => Effect.promise(() => database.db.destroy().catch(() => undefined)),
    ),
  )
