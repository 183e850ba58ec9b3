// Everything that differs between the two SQL databases, in one object per dialect (sqlite.ts, mysql.ts), so the
// stores read the same on both. Neither dialect uses RETURNING (MySQL has none): a write whose row a store needs reads
// it back in the same transaction, and an auto-increment key comes from Kysely's `InsertResult.insertId` on both.
import type { ControlledTransaction, Expression, InsertQueryBuilder, InsertResult, Kysely, SqlBool, UpdateObject } from "kysely"
import type { Flavor } from "../flavor.ts"
import type { Tables } from "../schema.ts"
import type { Classified } from "../SqlFailure.ts"

/** How a timestamp is stored: Date objects for DATETIME(3) in UTC on MySQL, fixed-width ISO-8601 text on SQLite. */
export interface TimeCodec {
  write(date: Date): Date | string
  read(value: Date | string): Date
}

/** One per-account budget of one endpoint: what concurrent reservations serialise on. */
export interface BudgetAccount {
  readonly accountId: string
  readonly endpoint: string
}

/** An INSERT of table `TB`, as Kysely builds it. */
export type Insert<DB, TB extends keyof DB> = InsertQueryBuilder<DB, TB, InsertResult>

export interface Dialect {
  readonly name: Flavor
  readonly time: TimeCodec
  /** Reads a driver error: its kind, and for a unique violation the key by its MySQL name (uniqueKeys.ts). */
  classify(error: unknown): Classified
  /** Starts a write transaction that holds its connection until it is committed or rolled back. */
  begin(db: Kysely<Tables>): Promise<ControlledTransaction<Tables>>
  /** How long one store operation may wait for the database; null when calls are synchronous and bound by the driver. */
  readonly operationTimeoutMs: number | null
  /** How often a transaction runs when it keeps failing with a lock conflict (1: never again). */
  readonly transactionAttempts: number
  /**
   * `insert`, or, when the row's unique key `key` exists, an update of `set` on that row. (MySQL applies the update on a
   * clash of any unique key, so upsert only tables whose other unique keys are generated ids.)
   */
  upsert<DB, TB extends keyof DB & string>(
    insert: Insert<DB, TB>,
    key: ReadonlyArray<keyof DB[TB] & string>,
    set: UpdateObject<DB, TB>,
  ): Insert<DB, TB>
  /** `insert` unless a row with its unique key `key` exists. Unlike MySQL's INSERT IGNORE, no other error is ignored. */
  insertUnlessExists<DB, TB extends keyof DB & string>(insert: Insert<DB, TB>, key: ReadonlyArray<keyof DB[TB] & string>): Insert<DB, TB>
  /** Before the reservation's transaction, outside it: whatever `lockBudget` needs to exist. */
  prepareBudgetLock(db: Kysely<Tables>, account: BudgetAccount): Promise<void>
  /** Inside the reservation's transaction: waits until no other reservation of `account` runs, on any instance. */
  lockBudget(trx: Kysely<Tables>, account: BudgetAccount): Promise<void>
  /** `column = value`, equal only code unit for code unit (MySQL's collations ignore trailing spaces). */
  sameText(column: string, value: string): Expression<SqlBool>
  /**
   * `table` to select from when a query wants its first rows in `index`'s order: MariaDB reads and sorts a whole small
   * table rather than read the index (seen on 10.11 with thousands of games) unless told to; SQLite's planner finds it.
   */
  inIndexOrder<T extends string>(table: T, index: string): T
  /** `+column` keeps the planner from reading through the column's index (SQLite's documented no-op; keyset.ts). */
  readonly unaryPlusHidesIndex: boolean
  /**
   * A row a write transaction decides on must be read with SELECT … FOR UPDATE so a concurrent one waits for the commit
   * (MySQL at READ COMMITTED); false where write transactions already run one at a time (SQLite's BEGIN IMMEDIATE).
   */
  readonly locksRowsForUpdate: boolean
}
