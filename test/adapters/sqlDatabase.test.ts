// The SQL boundary on the real drivers: a driver error becomes one classified SqlFailure (its kind, and a unique key by
// name), and a transaction is an Effect that commits, rolls back on failure and on interruption, gives its connection
// back, and runs again after a deadlock.
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { assert, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber, Ref } from "effect"
import { createConnection } from "mysql2/promise"
import { expect, inject, test } from "vitest"
import { mysqlDialect } from "../../adapters/sql/dialects/mysql.ts"
import { sqliteDialect } from "../../adapters/sql/dialects/sqlite.ts"
import { layerSqlDatabase, SqlDatabase, type SqlTarget } from "../../adapters/sql/index.ts"
import { gameRow, releaseRow } from "../../adapters/sql/rows.ts"
import { SqlFailure } from "../../adapters/sql/SqlFailure.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { aGame, anIntent, aReleaseFor, unique } from "../support/fixtures.ts"

class Refused extends Error {}

const classified = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flip(effect).pipe(Effect.map((error) => (error instanceof SqlFailure ? { kind: error.kind, constraint: error.constraint } : error)))

/** Throws if `run` does not fail; returns what it failed with. */
const thrownBy = async (run: () => unknown): Promise<unknown> => {
  try {
    await run()
  } catch (error) {
    return error
  }
  throw new Error("expected a driver error")
}

const insertGame = (game: ReturnType<typeof aGame>) =>
  SqlDatabase.use((database) => database.transaction("insert game", (tx) => tx.run((trx) => trx.insertInto("games").values(gameRow(game, database.time)).execute())))

const gameExists = (id: string) =>
  SqlDatabase.use((database) => database.query("get game", (db) => db.selectFrom("games").select("id").where("id", "=", id).executeTakeFirst())).pipe(
    Effect.map((row) => row !== undefined),
  )

/** Lets forked fibers run up to their first wait. */
const settle = Effect.yieldNow.pipe(Effect.repeat({ times: 20 }))

const boundarySuite = (name: string, target: SqlTarget) =>
  layer(layerSqlDatabase({ target }), { timeout: 60_000 })(`SQL boundary: ${name}`, (it) => {
    it.effect("a unique violation names its key; a missing parent is a foreign key violation", () =>
      Effect.gen(function*() {
        const game = aGame({ manifestId: unique("mf-") })
        yield* insertGame(game)
        // One key at a time: which of several a database reports is its own choice.
        const slugOnly = { ...game, id: unique("gm_"), manifestId: unique("mf-") }
        assert.deepStrictEqual(yield* classified(insertGame(slugOnly)), { kind: "unique_violation", constraint: "games_slug_unique" })
        const idOnly = { ...game, slug: unique("s-"), manifestId: unique("mf-") }
        assert.deepStrictEqual(yield* classified(insertGame(idOnly)), { kind: "unique_violation", constraint: "PRIMARY" })
        assert.deepStrictEqual(yield* classified(insertGame({ ...game, id: unique("gm_"), slug: unique("s-") })), {
          kind: "unique_violation",
          constraint: "games_manifest_id_unique",
        })
        const orphan = aReleaseFor(anIntent(unique("gm_")))
        const database = yield* SqlDatabase
        assert.deepStrictEqual(
          yield* classified(database.query("insert release", (db) => db.insertInto("releases").values(releaseRow(orphan, database.time)).execute())),
          { kind: "foreign_key_violation", constraint: null },
        )
      }))

    it.effect("a transaction commits when its body succeeds and rolls back when the body fails, with the body's own error", () =>
      Effect.gen(function*() {
        const database = yield* SqlDatabase
        const [kept, dropped] = [aGame(), aGame()]
        yield* insertGame(kept)
        const refused = yield* Effect.flip(database.transaction("refuse", (tx) =>
          tx.run((trx) => trx.insertInto("games").values(gameRow(dropped, database.time)).execute()).pipe(Effect.andThen(Effect.fail(new Refused("no"))))
        ))
        assert.instanceOf(refused, Refused)
        assert.deepStrictEqual([yield* gameExists(kept.id), yield* gameExists(dropped.id)], [true, false])
      }))

    it.effect("an interrupted transaction is rolled back and gives its connection back", () =>
      Effect.gen(function*() {
        const database = yield* SqlDatabase
        const abandoned = aGame()
        const written = yield* Deferred.make<void>()
        const fiber = yield* Effect.forkChild(database.transaction("abandoned", (tx) =>
          tx.run((trx) => trx.insertInto("games").values(gameRow(abandoned, database.time)).execute()).pipe(
            Effect.andThen(Deferred.succeed(written, undefined)),
            Effect.andThen(Effect.never),
          )))
        yield* Deferred.await(written)
        yield* Fiber.interrupt(fiber)
        // The next transaction gets a connection (the only one: SQLite's, or a pool of one) and the row never appears.
        const after = aGame()
        yield* insertGame(after)
        assert.deepStrictEqual([yield* gameExists(abandoned.id), yield* gameExists(after.id)], [false, true])
      }))

    it.effect("a transaction whose caller left while it waited for a connection never runs, and gives the connection back", () =>
      Effect.gen(function*() {
        const database = yield* SqlDatabase
        const holding = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const holder = yield* Effect.forkChild(database.transaction("holder", () => Deferred.succeed(holding, undefined).pipe(Effect.andThen(Deferred.await(release)))))
        yield* Deferred.await(holding)
        const ran = yield* Ref.make(false)
        const waiter = yield* Effect.forkChild(database.transaction("waiter", () => Ref.set(ran, true)))
        yield* settle
        yield* Fiber.interrupt(waiter)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        const after = aGame()
        yield* insertGame(after)
        assert.deepStrictEqual([yield* Ref.get(ran), yield* gameExists(after.id)], [false, true])
      }))
  })

// One connection on both: a transaction that kept its connection would make every later case wait forever.
boundarySuite("SQLite", { kind: "sqlite", path: join(mkdtempSync(join(inject("runDir"), "boundary-")), "records.sqlite") })
const mariadbUrl = `${await freshDatabase(inject("mariadbUrl"), "boundary")}?connectionLimit=1`
boundarySuite("MariaDB", { kind: "mysql", url: mariadbUrl })

layer(layerSqlDatabase({ target: { kind: "mysql", url: mariadbUrl.replace("connectionLimit=1", "connectionLimit=4") } }), { timeout: 60_000 })(
  "SQL boundary: MariaDB deadlocks",
  (it) => {
    it.effect("two transactions that deadlock both commit: the one InnoDB rolled back runs again", () =>
      Effect.gen(function*() {
        const database = yield* SqlDatabase
        const [a, b] = [aGame(), aGame()]
        yield* insertGame(a)
        yield* insertGame(b)
        const runs = yield* Ref.make(0)
        const locked = [yield* Deferred.make<void>(), yield* Deferred.make<void>()] as const
        const rename = (first: string, second: string, mine: Deferred.Deferred<void>, theirs: Deferred.Deferred<void>, name: string) =>
          database.transaction("rename both", (tx) =>
            Effect.gen(function*() {
              yield* Ref.update(runs, (n) => n + 1)
              yield* tx.run((trx) => trx.updateTable("games").set({ name }).where("id", "=", first).execute())
              yield* Deferred.succeed(mine, undefined)
              yield* Deferred.await(theirs)
              yield* tx.run((trx) => trx.updateTable("games").set({ name }).where("id", "=", second).execute())
            }))
        yield* Effect.all([rename(a.id, b.id, locked[0], locked[1], "First"), rename(b.id, a.id, locked[1], locked[0], "Second")], { concurrency: 2 })
        assert.strictEqual(yield* Ref.get(runs), 3, "one of the two ran twice")
        const names = yield* database.query("names", (db) => db.selectFrom("games").select("name").where("id", "in", [a.id, b.id]).execute())
        assert.strictEqual(new Set(names.map((r) => r.name)).size, 1, "the later commit renamed both")
      }))
  },
)

test("SQLite: a lock held by another process is a lock conflict; a full database is disk_full", async () => {
  const file = join(mkdtempSync(join(inject("runDir"), "boundary-")), "busy.sqlite")
  const holder = new DatabaseSync(file)
  const other = new DatabaseSync(file, { timeout: 0 })
  try {
    holder.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (v BLOB); BEGIN IMMEDIATE")
    expect(sqliteDialect.classify(await thrownBy(() => other.exec("BEGIN IMMEDIATE")))).toEqual({ kind: "lock_conflict", constraint: null })
    holder.exec("ROLLBACK; PRAGMA max_page_count = 8")
    const full = await thrownBy(() => {
      for (let i = 0; i < 100; i++) holder.prepare("INSERT INTO t (v) VALUES (?)").run(new Uint8Array(4096))
    })
    expect(sqliteDialect.classify(full)).toEqual({ kind: "disk_full", constraint: null })
  } finally {
    holder.close()
    other.close()
  }
})

test("MariaDB: a lock wait timeout is a lock conflict, a full table is disk_full, a refused connection is a connection failure", async () => {
  const url = await freshDatabase(inject("mariadbUrl"), "boundary_raw")
  const [first, second] = [await createConnection({ uri: url }), await createConnection({ uri: url })]
  try {
    await first.query("CREATE TABLE t (id INT PRIMARY KEY) ENGINE=InnoDB")
    await first.query("INSERT INTO t VALUES (1)")
    await first.query("BEGIN")
    await first.query("UPDATE t SET id = 1 WHERE id = 1")
    await second.query("SET SESSION innodb_lock_wait_timeout = 1")
    expect(mysqlDialect.classify(await thrownBy(() => second.query("UPDATE t SET id = 1 WHERE id = 1")))).toEqual({ kind: "lock_conflict", constraint: null })
    await first.query("ROLLBACK")

    await second.query("SET SESSION max_heap_table_size = 16384")
    await second.query("CREATE TEMPORARY TABLE small (v VARCHAR(255)) ENGINE=MEMORY")
    const full = await thrownBy(async () => {
      for (let i = 0; i < 10_000; i++) await second.query("INSERT INTO small VALUES (REPEAT('x', 255))")
    })
    expect(mysqlDialect.classify(full)).toEqual({ kind: "disk_full", constraint: null })
  } finally {
    await first.end()
    await second.end()
  }
  const refused = await thrownBy(() => createConnection({ host: "127.0.0.1", port: 1, user: "nobody", connectTimeout: 2000 }))
  expect(mysqlDialect.classify(refused)).toEqual({ kind: "connection", constraint: null })
})
