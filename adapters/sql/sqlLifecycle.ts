// One lifecycle step in one transaction: the game's row is locked (MySQL: FOR UPDATE; SQLite transactions hold the
// write lock from their start), the plan is computed from what the transaction reads, and the statuses, the pointer,
// the timeline events and the change-feed entry (last: SqlChangeFeed.ts) commit together or not at all.
import { Effect } from "effect"
import type { Transaction } from "kysely"
import { planLifecycle, type LifecycleStep } from "../../domain/review/ReviewMachine.ts"
import type { ChangeKind } from "../../ports/ChangeFeed.ts"
import { LifecycleRefused, type LifecycleOutcome } from "../../ports/ReleaseStore.ts"
import { releaseFromRow } from "./rows.ts"
import type { Tables } from "./schema.ts"
import { appendChange } from "./SqlChangeFeed.ts"
import type { SqlDatabase } from "./SqlDatabase.ts"
import { appendTimelineEvent } from "./SqlTimeline.ts"

const CHANGE_OF_STEP: Record<LifecycleStep["type"], ChangeKind> = {
  approve: "approved",
  reject: "rejected",
  withdraw: "withdrawn",
  activate: "activated",
  take_down: "taken_down",
  reinstate: "reinstated",
}

export const applyLifecycleSql = (database: SqlDatabase["Service"], gameId: string, step: LifecycleStep) => {
  const { dialect, time } = database
  return database.transaction(`release lifecycle: ${step.type}`, (tx) =>
    Effect.gen(function*() {
      const game = yield* tx.run((trx: Transaction<Tables>) =>
        trx.selectFrom("games").select(["active_version", "first_published_at"]).where("id", "=", gameId)
          .$if(dialect.name === "mysql", (q) => q.forUpdate())
          .executeTakeFirst()
      )
      const rows = yield* tx.run((trx) =>
        trx.selectFrom("releases").selectAll().where("game_id", "=", gameId).orderBy("created_at").orderBy("version").execute()
      )
      const activeBefore = game?.active_version ?? null
      const planned = planLifecycle(gameId, { activeVersion: activeBefore, releases: rows.map((row) => releaseFromRow(row, time)) }, step)
      if ("refused" in planned) return yield* new LifecycleRefused({ gameId, ...planned.refused })
      const { plan } = planned
      yield* tx.run(async (trx) => {
        for (const release of plan.updated) {
          await trx.updateTable("releases").set({
            status: release.status,
            reviewed_by: release.reviewedBy,
            reviewed_at: release.reviewedAt === null ? null : time.write(release.reviewedAt),
            rejection_reason: release.rejectionReason,
            quarantine_key: release.quarantineKey ?? null,
            takedown_reason: release.takedownReason ?? null,
          }).where("game_id", "=", gameId).where("version", "=", release.version).execute()
        }
        if (plan.activeVersion !== activeBefore) {
          await trx.updateTable("games").set({
            active_version: plan.activeVersion,
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
