// One lifecycle step in one transaction: the game's row is locked (MySQL: FOR UPDATE; SQLite transactions hold the
// write lock from their start), the plan is computed from what the transaction reads (the pointer, the releases, the
// versions the timeline records as ever active), and the statuses, the pointer, the timeline events and the
// change-feed entry (last: SqlChangeFeed.ts) commit together or not at all.
import { Effect } from "effect"
import type { Transaction } from "kysely"
import { Claimed } from "../../domain/errors.ts"
import { planLifecycle, type LifecycleStep } from "../../domain/review/ReviewMachine.ts"
import { type LeaseFence, LifecycleLeaseLost, LifecycleRefused, type LifecycleOutcome } from "../../ports/ReleaseStore.ts"
import { pointerColumns, releaseFromRow } from "./rows.ts"
import type { Tables } from "./schema.ts"
import { lockRelease } from "./lockRelease.ts"
import { CHANGE_OF_STEP } from "../shared/lifecycleSteps.ts"
import { appendChange } from "./SqlChangeFeed.ts"
import type { SqlDatabase } from "./SqlDatabase.ts"
import { appendTimelineEvent } from "./SqlTimeline.ts"

export const applyLifecycleSql = (database: SqlDatabase["Service"], gameId: string, step: LifecycleStep, lease?: LeaseFence) => {
  const { dialect, time } = database
  return database.transaction(`release lifecycle: ${step.type}`, (tx) =>
    Effect.gen(function*() {
      const game = yield* tx.run((trx: Transaction<Tables>) =>
        trx.selectFrom("games").select(["active_version", "first_published_at", "lifecycle_holder", "lifecycle_until"]).where("id", "=", gameId)
          .$if(dialect.locksRowsForUpdate, (q) => q.forUpdate())
          .executeTakeFirst()
      )
      // Fencing: read under the game's lock, so the lease cannot change hands between this check and the commit.
      if (lease !== undefined) {
        const held = game?.lifecycle_holder === lease.holder && game.lifecycle_until !== null &&
          time.read(game.lifecycle_until).getTime() > lease.now.getTime()
        if (!held) return yield* new LifecycleLeaseLost({ gameId, holder: lease.holder })
      }
      const rows = yield* tx.run((trx) =>
        trx.selectFrom("releases").selectAll().where("game_id", "=", gameId).orderBy("created_at").orderBy("version").execute()
      )
      const activated = yield* tx.run((trx) =>
        trx.selectFrom("release_timeline").select("version").distinct().where("game_id", "=", gameId).where("kind", "=", "activated").execute()
      )
      const activeBefore = game?.active_version ?? null
      const state = {
        activeVersion: activeBefore,
        releases: rows.map((row) => releaseFromRow(row, time)),
        everActive: new Set(activated.flatMap((row) => (row.version === null ? [] : [row.version]))),
      }
      const planned = planLifecycle(gameId, state, step)
      if ("refused" in planned) return yield* new LifecycleRefused({ gameId, ...planned.refused })
      const { plan } = planned
      // The review gate (issue 15): the release row is locked (claims lock it too), so a claim taken meanwhile waits for
      // this decision; another administrator's live claim refuses it.
      const decision = step.type === "approve" || step.type === "reject" ? step : null
      if (decision !== null) {
        const claim = yield* tx.run(async (trx) => {
          await lockRelease(trx, dialect, gameId, decision.version)
          return trx.selectFrom("review_claims").selectAll().where("game_id", "=", gameId).where("version", "=", decision.version).executeTakeFirst()
        })
        if (claim !== undefined && claim.claimed_by !== decision.by && time.read(claim.claimed_until).getTime() > step.at.getTime()) {
          return yield* new Claimed({ gameId, version: decision.version, claimedBy: claim.claimed_by, claimedUntil: time.read(claim.claimed_until) })
        }
      }
      yield* tx.run(async (trx) => {
        if (decision !== null) {
          // A decision ends the claim and keeps an approval's override reason with it.
          await trx.deleteFrom("review_claims").where("game_id", "=", gameId).where("version", "=", decision.version).execute()
          const overrideReason = decision.type === "approve" ? decision.overrideReason ?? null : null
          if (overrideReason !== null) {
            await trx.insertInto("approval_overrides")
              .values({ game_id: gameId, version: decision.version, reason: overrideReason, approved_by: decision.by, approved_at: time.write(step.at) })
              .execute()
          }
        }
        for (const release of plan.updated) {
          await trx.updateTable("releases").set({
            status: release.status,
            reviewed_by: release.reviewedBy,
            reviewed_at: release.reviewedAt === null ? null : time.write(release.reviewedAt),
            rejection_reason: release.rejectionReason,
            quarantine_key: release.quarantineKey ?? null,
            takedown_reason: release.takedownReason ?? null,
            takedown_scope: release.takedownScope ?? null,
          }).where("game_id", "=", gameId).where("version", "=", release.version).execute()
        }
        if (plan.activeVersion !== activeBefore || plan.activeReason !== null) {
          await trx.updateTable("games").set({
            ...pointerColumns(plan.activeVersion, plan.activeReason, time),
            ...(game?.first_published_at == null && plan.activeVersion !== null ? { first_published_at: time.write(step.at) } : {}),
          }).where("id", "=", gameId).execute()
        }
        for (const event of plan.events) await appendTimelineEvent(trx, time, event)
        await appendChange(trx, time, { gameId, kind: CHANGE_OF_STEP[step.type], at: step.at })
      })
      return {
        updated: plan.updated,
        activeVersionBefore: activeBefore,
        activeVersion: plan.activeVersion,
        activationNote: plan.activationNote,
      } satisfies LifecycleOutcome
    }))
}
