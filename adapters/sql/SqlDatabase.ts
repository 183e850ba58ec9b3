// One open database (SQLite file or MySQL pool) shared by the three SQL stores, with the few things they need:
// the dialect, the time codec, bounded calls that turn driver failures into Unavailable, and write transactions.
import { Context, Effect, Layer, Schedule } from "effect"
import type { Kysely, Transaction } from "kysely"
import { Unavailable } from "../../domain/errors.ts"
import { describeFailure, isConnectionFailure, isRetryableConflict } from "./failures.ts"
import type { Flavor } from "./flavor.ts"
import { migrateToLatest } from "./migrate.ts"
import { describeMysqlTarget, openMysql, parseMysqlUrl } from "./mysql.ts"
import type { Tables } from "./schema.ts"
import { openSqlite } from "./sqlite.ts"

/** No database call keeps a request waiting longer than this (SQLite's busy timeout and MySQL's connect timeout are shorter). */
export const OPERATION_TIMEOUT_MS = 10_000
/** A database that is not reachable yet at start-up (a container starting alongside) gets this long. */
const STARTUP_ATTEMPTS = 20
const MYSQL_CONFLICT_ATTEMPTS = 4

export type SqlTarget = { readonly kind: "sqlite"; readonly path: string } | { readonly kind: "mysql"; readonly url: string }

/** Named points inside a write where a fault test can hold the process (and kill it). */
export type PausePoint = "finalize:before-commit" | "finalize:after-commit"

export interface SqlDatabaseOptions {
  readonly target: SqlTarget
  /** Test-only: awaited at each pause point. Production never sets it. */
  readonly pause?: (point: PausePoint) => Promise<void>
}

export interface TimeCodec {
  write(date: Date): Date | string
  read(value: Date | string): Date
}

export class SqlDatabase extends Context.Service<SqlDatabase, {
  readonly db: Kysely<Tables>
  readonly flavor: Flavor
  /** Where the records are, without secrets. */
  readonly description: string
  /** Migrations this process applied when it opened the database. */
  readonly migrated: ReadonlyArray<string>
  readonly time: TimeCodec
  /**
   * Runs one store operation: bounded in time; a failure `known` recognises (a domain error thrown on purpose, a
   * unique violation) is returned as is, anything else becomes Unavailable("database"). `signal` aborts when the
   * caller gave up (timeout, interruption): pass it to `transaction`.
   */
  run<A, E = never>(what: string, work: (signal: AbortSignal) => Promise<A>, known?: (error: unknown) => E | undefined): Effect.Effect<A, E | Unavailable>
  /**
   * A write transaction: `begin immediate` on SQLite; READ COMMITTED with deadlock retries on MySQL. It rolls back
   * instead of committing when `signal` aborted meanwhile: a database that stalls and then resumes must not commit a
   * write whose caller was already told it failed.
   */
  transaction<A>(signal: AbortSignal, work: (trx: Transaction<Tables>) => Promise<A>): Promise<A>
  readonly pause: (point: PausePoint) => Promise<void>
}>()("pckgate/adapters/sql/SqlDatabase") {}

// MySQL DATETIME(3) holds UTC Dates (mysql2 timezone "Z"); SQLite keeps fixed-width ISO-8601 text, whose order is time order.
const TIME_CODECS: Record<Flavor, TimeCodec> = {
  mysql: { write: (date) => date, read: (value) => (value instanceof Date ? value : new Date(value)) },
  sqlite: { write: (date) => date.toISOString(), read: (value) => (value instanceof Date ? value : new Date(value)) },
}

interface Opened {
  readonly db: Kysely<Tables>
  readonly flavor: Flavor
  readonly description: string
  readonly secrets: ReadonlyArray<string>
}

const open = async (target: SqlTarget): Promise<Opened> => {
  if (target.kind === "sqlite") return { db: openSqlite(target.path), flavor: "sqlite", description: `SQLite ${target.path} (WAL)`, secrets: [] }
  const parsed = parseMysqlUrl(target.url)
  if ("error" in parsed) throw new Error(parsed.error)
  return { db: await openMysql(parsed), flavor: "mysql", description: describeMysqlTarget(parsed), secrets: [parsed.password, target.url] }
}

const isProgrammingError = (error: unknown): boolean =>
  error instanceof TypeError || error instanceof ReferenceError || error instanceof SyntaxError || error instanceof RangeError

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const makeService = (opened: Opened, migrated: ReadonlyArray<string>, options: SqlDatabaseOptions): SqlDatabase["Service"] => {
  const { db, flavor } = opened
  const unavailable = (what: string, error: unknown) =>
    new Unavailable({ dependency: "database", reason: `${what}: ${describeFailure(error, opened.secrets)}` })
  const transaction = async <A>(signal: AbortSignal, work: (trx: Transaction<Tables>) => Promise<A>): Promise<A> => {
    const commitUnlessAbandoned = async (trx: Transaction<Tables>) => {
      const result = await work(trx)
      if (signal.aborted) throw new Error("abandoned by its caller (timed out); rolled back")
      return result
    }
    if (flavor === "sqlite") return db.transaction().execute(commitUnlessAbandoned)
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction().setIsolationLevel("read committed").execute(commitUnlessAbandoned)
      } catch (error) {
        if (attempt >= MYSQL_CONFLICT_ATTEMPTS || !isRetryableConflict(error) || signal.aborted) throw error
        await sleep(5 * attempt + Math.floor(Math.random() * 10))
      }
    }
  }
  return SqlDatabase.of({
    db,
    flavor,
    description: opened.description,
    migrated,
    time: TIME_CODECS[flavor],
    run: (what, work, known) => {
      const attempt = Effect.tryPromise({ try: work, catch: (error) => error }).pipe(
        // A bug (a TypeError from our own code, a wrong parameter type) is a defect, never "the database is down".
        Effect.catch((error) => (isProgrammingError(error) ? Effect.die(error) : Effect.fail(known?.(error) ?? unavailable(what, error)))),
      )
      // SQLite calls are synchronous (they block the event loop and cannot be timed out; lock waits end at the busy
      // timeout), so only MySQL calls, which can stall on the network, race a timer — racing costs a fiber per call.
      return flavor === "sqlite" ? attempt : attempt.pipe(
        Effect.timeoutOrElse({
          duration: OPERATION_TIMEOUT_MS,
          orElse: () => Effect.fail(new Unavailable({ dependency: "database", reason: `${what}: no answer within ${OPERATION_TIMEOUT_MS} ms` })),
        }),
      )
    },
    transaction,
    pause: options.pause ?? (async () => undefined),
  })
}

/** Opens the database and applies pending migrations, waiting a while for a database that is still starting. */
const openAndMigrate = (options: SqlDatabaseOptions) =>
  Effect.gen(function*() {
    const opened = yield* Effect.tryPromise({
      try: () => open(options.target),
      catch: (error) => new Unavailable({ dependency: "database", reason: describeFailure(error, []) }),
    })
    const migrated = yield* Effect.tryPromise({
      try: () => migrateToLatest(opened.db, opened.flavor),
      catch: (error) => ({ error, retry: isConnectionFailure(error) }),
    }).pipe(
      Effect.retry({ schedule: Schedule.spaced("1 second"), times: STARTUP_ATTEMPTS, while: (failure) => failure.retry }),
      Effect.catch((failure) =>
        Effect.promise(() => opened.db.destroy().catch(() => undefined)).pipe(
          Effect.andThen(Effect.fail(new Unavailable({ dependency: "database", reason: `opening ${opened.description}: ${describeFailure(failure.error, opened.secrets)}` }))),
        )
      ),
    )
    return makeService(opened, migrated, options)
  })

/** The open database for the layer's lifetime: migrated on acquisition, closed (pool ended, file closed) on release. */
export const layerSqlDatabase = (options: SqlDatabaseOptions) =>
  Layer.effect(
    SqlDatabase,
    Effect.acquireRelease(openAndMigrate(options), (database) => Effect.promise(() => database.db.destroy().catch(() => undefined))),
  )
