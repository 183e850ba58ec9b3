// The change feed on the records database. A store appends inside its own write transaction (`appendChange`), so a
// change is in the feed exactly when the write it announces committed; the port reads it.
//
// Why sequences come from a head row and not from AUTO_INCREMENT: InnoDB hands out auto-increment values when rows are
// inserted, not when they commit, so change 11 can commit (and be read) before change 10 does; a follower that read 11
// and then asks for `seq > 11` never sees 10. Here each append increments the single head row, whose row lock it holds
// until its transaction ends: the next append waits for it, so sequences are assigned in commit order, and a rolled
// back append gives its number back (no gaps). Any reader snapshot that holds change n therefore holds every change
// before it. Appends are the last statement of their transaction, so the lock is held only for the commit. SQLite
// serialises writers anyway (`begin immediate`); the same statements serve both.
import { Effect, Layer } from "effect"
import type { Transaction } from "kysely"
import { type Change, ChangeFeed, type ChangeKind } from "../../ports/ChangeFeed.ts"
import type { TimeCodec } from "./dialects/Dialect.ts"
import type { Tables } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"

const HEAD = 1

/** Announces a change inside the caller's transaction; make it the transaction's last statement. Returns its sequence. */
export const appendChange = async (
  trx: Transaction<Tables>,
  time: TimeCodec,
  change: { readonly gameId: string; readonly kind: ChangeKind; readonly at: Date },
): Promise<number> => {
  await trx.updateTable("change_feed_head").set((eb) => ({ seq: eb("seq", "+", 1) })).where("id", "=", HEAD).execute()
  const { seq } = await trx.selectFrom("change_feed_head").select("seq").where("id", "=", HEAD).executeTakeFirstOrThrow()
  await trx.insertInto("change_feed").values({ seq: Number(seq), game_id: change.gameId, kind: change.kind, at: time.write(change.at) }).execute()
  return Number(seq)
}

export const layerSqlChangeFeed = Layer.effect(
  ChangeFeed,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { time } = database
    const latest = database.query("read the change feed's head", (db) =>
      db.selectFrom("change_feed_head").select("seq").where("id", "=", HEAD).executeTakeFirstOrThrow()).pipe(
      Effect.map((row) => Number(row.seq)),
      orUnavailable,
    )
    return ChangeFeed.of({
      since: (seq, limit) =>
        database.query("read the change feed", (db) =>
          db.selectFrom("change_feed").selectAll().where("seq", ">", seq).orderBy("seq").limit(limit).execute()).pipe(
          Effect.map((rows) => rows.map((row): Change => ({ seq: Number(row.seq), gameId: row.game_id, kind: row.kind, at: time.read(row.at) }))),
          orUnavailable,
        ),
      latest,
      // The head is read first: whatever is appended meanwhile is newer still, so the newest change always stays.
      prune: (before) =>
        Effect.flatMap(latest, (newest) =>
          database.query("prune the change feed", (db) =>
            db.deleteFrom("change_feed").where("at", "<", time.write(before)).where("seq", "<", newest).executeTakeFirst()).pipe(
            Effect.map((result) => Number(result.numDeletedRows)),
            orUnavailable,
          )),
    })
  }),
)
