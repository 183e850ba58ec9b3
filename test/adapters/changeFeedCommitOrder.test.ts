// The change feed on MariaDB when two appends overlap. InnoDB hands out AUTO_INCREMENT values when a row is inserted,
// not when it commits, so with them a later change could commit (and be read by a follower, who then asks only for
// what comes after it) while an earlier one is still open: that earlier change would never be seen. The feed takes its
// sequence from a head row instead, locked until commit (adapters/sql/SqlChangeFeed.ts). Here the first append's
// transaction is held open: the second append must wait for it, and a follower reading meanwhile sees neither.
// (SQLite serialises writers with `begin immediate`; two appends cannot overlap there.)
import { Effect, Layer, ManagedRuntime } from "effect"
import { sql } from "kysely"
import { afterAll, describe, expect, inject, test } from "vitest"
import { appendChange } from "../../adapters/sql/SqlChangeFeed.ts"
import { SqlDatabase } from "../../adapters/sql/SqlDatabase.ts"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { ChangeFeed } from "../../ports/ChangeFeed.ts"
import { freshDatabase } from "../setup/mariadb.ts"

const url = await freshDatabase(inject("mariadbUrl"), "feed_order")
const records = ManagedRuntime.make(Layer.orDie(layerSqlRecords({ target: { kind: "mysql", url } })))
afterAll(() => records.dispose())

/**
 * Appends, in a transaction of its own that commits once `commitWhen` resolves; the change's sequence. `appended` is
 * called once the change is written (the head row locked), before the commit waits.
 */
const append = async (gameId: string, commitWhen: Promise<void> = Promise.resolve(), appended: () => void = () => {}) => {
  const database = await records.runPromise(SqlDatabase.use(Effect.succeed))
  const trx = await database.dialect.begin(database.db)
  const seq = await appendChange(trx, database.time, { gameId, kind: "approved", at: new Date("2026-09-01T00:00:00.000Z") })
  appended()
  await commitWhen
  await trx.commit().execute()
  return seq
}

/**
 * Statements of this database running an update of the feed's head row: with the first append's transaction open, one
 * is running only while it waits for that row's lock. (PROCESSLIST shows a statement while it runs; InnoDB's own
 * transaction tables are a snapshot refreshed lazily, which missed the wait now and then.)
 */
const waitingForTheHead = async () => {
  const database = await records.runPromise(SqlDatabase.use(Effect.succeed))
  const { rows } = await sql<{ waiting: number }>`
    SELECT COUNT(*) AS waiting FROM information_schema.PROCESSLIST
    WHERE DB = DATABASE() AND COMMAND = 'Query' AND INFO LIKE '%change\\_feed\\_head%' AND ID <> CONNECTION_ID()`.execute(database.db)
  return Number(rows[0]!.waiting)
}

const since = (seq: number) => records.runPromise(ChangeFeed.use((feed) => feed.since(seq, 10)))

describe("change feed on MariaDB: overlapping appends", () => {
  test("a second append waits for the first to commit, so no follower can read past a change that commits late", async () => {
    const start = await records.runPromise(ChangeFeed.use((feed) => feed.latest))
    let releaseFirst!: () => void
    let firstAppended!: () => void
    const holding = new Promise<void>((resolve) => (firstAppended = resolve))
    const first = append("gm_first", new Promise((resolve) => (releaseFirst = resolve)), firstAppended)
    // The second starts once the first holds the head row: started together, either could take it first. (A first
    // append that fails ends the wait too, and the expectations below say how.)
    void first.catch(() => undefined).finally(firstAppended)
    await holding
    let secondSettled = false
    const second = append("gm_second").finally(() => void (secondSettled = true))
    try {
      // A state to wait for, not a time: the second append stuck behind the first, or (wrongly) done.
      while (!secondSettled && (await waitingForTheHead()) === 0) await Effect.runPromise(Effect.sleep("10 millis"))
      expect(secondSettled, "the second append committed while the first was still open").toBe(false)
      expect(await since(start)).toEqual([])
    } finally {
      // Whatever happened, the first transaction ends: a held head row would block every later append.
      releaseFirst()
    }
    expect([await first, await second]).toEqual([start + 1, start + 2])
    expect((await since(start)).map(({ seq, gameId }) => ({ seq, gameId }))).toEqual([
      { seq: start + 1, gameId: "gm_first" },
      { seq: start + 2, gameId: "gm_second" },
    ])
  })

  test("an append whose transaction rolls back gives its sequence back", async () => {
    const start = await records.runPromise(ChangeFeed.use((feed) => feed.latest))
    const database = await records.runPromise(SqlDatabase.use(Effect.succeed))
    const trx = await database.dialect.begin(database.db)
    expect(await appendChange(trx, database.time, { gameId: "gm_undone", kind: "rejected", at: new Date() })).toBe(start + 1)
    await trx.rollback().execute()
    expect(await append("gm_kept")).toBe(start + 1)
    expect((await since(start)).map((change) => change.gameId)).toEqual(["gm_kept"])
  })
})
