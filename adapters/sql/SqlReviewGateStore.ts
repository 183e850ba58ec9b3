import { Effect, Layer, Option } from "effect"
import type { Selectable } from "kysely"
import { Claimed } from "../../domain/errors.ts"
import { acceptanceWithdrawnEvent, claimedEvent, findingAcceptedEvent, takesClaim } from "../../domain/review/gateTimeline.ts"
import { type FindingAcceptance, type ReviewClaim, ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { lockRelease } from "./lockRelease.ts"
import type { FindingAcceptancesTable, ReviewClaimsTable } from "./schema.ts"
import { SqlDatabase } from "./SqlDatabase.ts"
import { orUnavailable } from "./SqlFailure.ts"
import { appendTimelineEvent } from "./SqlTimeline.ts"

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

export const layerSqlReviewGateStore = Layer.effect(
  ReviewGateStore,
  Effect.gen(function*() {
    const database = yield* SqlDatabase
    const { dialect, time } = database
    const toClaim = (row: Selectable<ReviewClaimsTable>): ReviewClaim => ({
      gameId: row.game_id,
      version: row.version,
      by: row.claimed_by,
      until: time.read(row.claimed_until),
    })
    const toAcceptance = (row: Selectable<FindingAcceptancesTable>): FindingAcceptance => ({
      gameId: row.game_id,
      fingerprint: row.fingerprint,
      by: row.accepted_by,
      at: time.read(row.accepted_at),
      reason: row.reason,
    })
    return ReviewGateStore.of({
      claim: (claim, now, actor) =>
        database.transaction("claim release", (tx) =>
          Effect.gen(function*() {
            yield* tx.run((trx) => lockRelease(trx, dialect, claim.gameId, claim.version))
            const held = yield* tx.run((trx) =>
              trx.selectFrom("review_claims").selectAll().where("game_id", "=", claim.gameId).where("version", "=", claim.version).executeTakeFirst()
            )
            if (held !== undefined && held.claimed_by !== claim.by && time.read(held.claimed_until).getTime() > now.getTime()) {
              return yield* new Claimed({ gameId: claim.gameId, version: claim.version, claimedBy: held.claimed_by, claimedUntil: time.read(held.claimed_until) })
            }
            const columns = { claimed_by: claim.by, claimed_until: time.write(claim.until) }
            yield* tx.run(async (trx) => {
              if (held === undefined) await trx.insertInto("review_claims").values({ game_id: claim.gameId, version: claim.version, ...columns }).execute()
              else await trx.updateTable("review_claims").set(columns).where("game_id", "=", claim.gameId).where("version", "=", claim.version).execute()
              const before = held === undefined ? null : { by: held.claimed_by, until: time.read(held.claimed_until) }
              if (takesClaim(before, claim.by, now)) await appendTimelineEvent(trx, time, claimedEvent(claim, now, actor))
            })
            return claim
          })).pipe(orUnavailable),
      getClaim: (gameId, version) =>
        database.query("get claim", (db) => db.selectFrom("review_claims").selectAll().where("game_id", "=", gameId).where("version", "=", version).executeTakeFirst())
          .pipe(Effect.map((row) => (row === undefined ? Option.none() : Option.some(toClaim(row)))), orUnavailable),
      claimsOf: (releases) =>
        Effect.forEach(chunks(releases, 200), (some) =>
          database.query("claims of releases", (db) =>
            db.selectFrom("review_claims").selectAll()
              .where((eb) => eb.or(some.map((r) => eb.and([eb("game_id", "=", r.gameId), eb("version", "=", r.version)]))))
              .execute())).pipe(Effect.map((results) => results.flat().map(toClaim)), orUnavailable),
      unclaim: (gameId, version, by) =>
        database.query("end claim", (db) =>
          db.deleteFrom("review_claims").where("game_id", "=", gameId).where("version", "=", version).where("claimed_by", "=", by).executeTakeFirst())
          .pipe(Effect.map((result) => Number(result.numDeletedRows) > 0), orUnavailable),
      getOverride: (gameId, version) =>
        database.query("get approval override", (db) =>
          db.selectFrom("approval_overrides").selectAll().where("game_id", "=", gameId).where("version", "=", version).executeTakeFirst())
          .pipe(
            Effect.map((row) =>
              row === undefined ? Option.none() : Option.some({ reason: row.reason, by: row.approved_by, at: time.read(row.approved_at) })
            ),
            orUnavailable,
          ),
      accept: (acceptance, actor) => {
        const columns = { accepted_by: acceptance.by, accepted_at: time.write(acceptance.at), reason: acceptance.reason }
        return database.transaction("accept finding", (tx) =>
          tx.run(async (trx) => {
            await dialect.upsert(
              trx.insertInto("finding_acceptances").values({ game_id: acceptance.gameId, fingerprint: acceptance.fingerprint, ...columns }),
              ["game_id", "fingerprint"],
              columns,
            ).execute()
            await appendTimelineEvent(trx, time, findingAcceptedEvent(acceptance, actor))
          })).pipe(Effect.as(acceptance), orUnavailable)
      },
      withdraw: (gameId, fingerprint, withdrawal) =>
        database.transaction("withdraw acceptance", (tx) =>
          tx.run(async (trx) => {
            const deleted = await trx.deleteFrom("finding_acceptances").where("game_id", "=", gameId).where("fingerprint", "=", fingerprint).executeTakeFirst()
            if (Number(deleted.numDeletedRows) === 0) return false
            await appendTimelineEvent(trx, time, acceptanceWithdrawnEvent(gameId, fingerprint, withdrawal))
            return true
          })).pipe(orUnavailable),
      acceptances: (gameId) =>
        database.query("acceptances of game", (db) =>
          db.selectFrom("finding_acceptances").selectAll().where("game_id", "=", gameId).orderBy("fingerprint").execute())
          .pipe(Effect.map((rows) => rows.map(toAcceptance)), orUnavailable),
    })
  }),
)
