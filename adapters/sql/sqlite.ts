// SQLite through Node's built-in `node:sqlite` (also in Deno): no native addon to compile.
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs"
import { dirname } from "node:path"
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite"
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
  SqliteDriver,
} from "kysely"
import type { Tables } from "./schema.ts"

/** How long a writer waits for another process's write lock before failing with SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000
const STATEMENT_CACHE_SIZE = 200

const toSqlite = (value: unknown): SQLInputValue => {
  if (value === undefined) return null
  if (typeof value === "boolean") return value ? 1 : 0
  return value as SQLInputValue
}

/** Kysely's SqliteDialect speaks better-sqlite3; node:sqlite differs only in taking parameters as varargs. */
const wrapDatabaseSync = (db: DatabaseSync): SqliteDatabase => {
  // Kysely sends the same SQL text for the same query shape: preparing each once saves work on every request.
  const statements = new Map<string, SqliteStatement>()
  const prepare = (sql: string): SqliteStatement => {
    const statement: StatementSync = db.prepare(sql)
    return {
      reader: statement.columns().length > 0,
      all: (parameters) => statement.all(...parameters.map(toSqlite)),
      run: (parameters) => statement.run(...parameters.map(toSqlite)),
      iterate: (parameters) => statement.iterate(...parameters.map(toSqlite)),
    }
  }
  return {
    close: () => db.close(),
    prepare: (sql) => {
      let statement = statements.get(sql)
      if (statement === undefined) {
        statement = prepare(sql)
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear()
        statements.set(sql, statement)
      }
      return statement
    },
  }
}

/**
 * Kysely begins SQLite transactions DEFERRED: two processes that both read and then write fail one of them with
 * SQLITE_BUSY at once (the busy timeout cannot help a lock upgrade). Every transaction here writes, so each takes the
 * write lock up front and a second writer waits for the busy timeout instead.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"))
  }
}

/**
 * SQLite does run DDL inside transactions; saying so makes Kysely's Migrator apply all pending migrations in one
 * `begin immediate` transaction, which is also the migration lock between processes starting at once (Kysely's SQLite
 * migration lock does nothing).
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig
  constructor(config: SqliteDialectConfig) {
    super(config)
    this.#config = config
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config)
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter()
  }
}

/** Opens (creating if needed) the database file in WAL mode with foreign keys on and a busy timeout. */
export const openSqlite = (path: string): Kysely<Tables> => {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  // Private by default: SQLite gives its WAL and shared-memory files the mode of the database file, so the file is
  // created 0600 here (and tightened if an older version left it readable by others) before SQLite opens it.
  closeSync(openSync(path, "a", 0o600))
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600)
  const db = new DatabaseSync(path, { timeout: SQLITE_BUSY_TIMEOUT_MS, enableForeignKeyConstraints: true })
  try {
    // The busy timeout first: switching a new file to WAL takes a lock that another starting instance may hold.
    db.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`)
    db.exec("PRAGMA journal_mode = WAL")
    db.exec("PRAGMA foreign_keys = ON")
    // Lifts defensive mode while a migration edits a table's definition (migrations/0008_release_lifecycle.ts).
    db.function("pckgate_schema_edits", (on) => {
      db.enableDefensive(on === 0)
      return on === 0 ? 0 : 1
    })
  } catch (error) {
    db.close()
    throw error
  }
  return new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: wrapDatabaseSync(db) }) })
}
