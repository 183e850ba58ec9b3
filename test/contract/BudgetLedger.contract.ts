import { assert, layer } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { layerRandomIds } from "../../adapters/system/RandomIds.ts"
import { withBudget } from "../../domain/budget/withBudget.ts"
import { BudgetLedger } from "../../ports/BudgetLedger.ts"
import { unique } from "../support/fixtures.ts"

const T0 = new Date("2026-06-01T00:00:00.000Z")
const plus = (seconds: number) => new Date(T0.getTime() + seconds * 1000)
const ONE_PER_HOUR = { count: 1, windowSeconds: 3600 }

export const budgetLedgerContract = (name: string, makeLayer: () => Layer.Layer<BudgetLedger, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`BudgetLedger contract: ${name}`, (it) => {
    it.effect("20 concurrent reservations on a budget of 1: exactly one spends, the others are rate_limited", () =>
      Effect.gen(function*() {
        const ledger = yield* BudgetLedger
        const accountId = unique("acct-")
        const exits = yield* Effect.all(
          Array.from({ length: 20 }, () => Effect.exit(ledger.reserve({ id: unique("bud_"), accountId, endpoint: "finalize", now: T0, limit: ONE_PER_HOUR }))),
          { concurrency: "unbounded" },
        )
        assert.strictEqual(exits.filter(Exit.isSuccess).length, 1)
        for (const exit of exits.filter(Exit.isFailure)) {
          const error = yield* Effect.flip(Effect.suspend(() => exit))
          assert.strictEqual(error._tag, "RateLimited")
        }
      }))

    it.effect("a refunded reservation frees the budget; refunding twice is harmless", () =>
      Effect.gen(function*() {
        const ledger = yield* BudgetLedger
        const accountId = unique("acct-")
        const reservation = yield* ledger.reserve({ id: unique("bud_"), accountId, endpoint: "upload_url", now: T0, limit: ONE_PER_HOUR })
        yield* ledger.refund(reservation)
        yield* ledger.refund(reservation)
        yield* ledger.reserve({ id: unique("bud_"), accountId, endpoint: "upload_url", now: plus(1), limit: ONE_PER_HOUR })
        const error = yield* Effect.flip(ledger.reserve({ id: unique("bud_"), accountId, endpoint: "upload_url", now: plus(2), limit: ONE_PER_HOUR }))
        assert.strictEqual(error._tag, "RateLimited")
      }))

    it.effect("the window slides, says when to retry, and budgets are per account and per endpoint", () =>
      Effect.gen(function*() {
        const ledger = yield* BudgetLedger
        const accountId = unique("acct-")
        const limit = { count: 2, windowSeconds: 60 }
        yield* ledger.reserve({ id: unique("bud_"), accountId, endpoint: "create_game", now: T0, limit })
        yield* ledger.reserve({ id: unique("bud_"), accountId, endpoint: "create_game", now: plus(10), limit })
        const limited = yield* Effect.flip(ledger.reserve({ id: unique("bud_"), accountId, endpoint: "create_game", now: plus(20), limit }))
        assert.strictEqual(limited._tag === "RateLimited" ? limited.retryAfterSeconds : -1, 40)
        yield* ledger.reserve({ id: unique("bud_"), accountId, endpoint: "finalize", now: plus(20), limit })
        yield* ledger.reserve({ id: unique("bud_"), accountId: unique("other-"), endpoint: "create_game", now: plus(20), limit })
        yield* ledger.reserve({ id: unique("bud_"), accountId, endpoint: "create_game", now: plus(60.001), limit })
      }))

    it.effect("through withBudget: a call that fails gives its reservation back, a call that succeeds keeps it", () =>
      Effect.gen(function*() {
        const accountId = unique("acct-")
        const failing = withBudget("finalize", accountId, Effect.fail("storage broke" as const))
        assert.strictEqual(yield* Effect.flip(failing), "storage broke")
        assert.strictEqual(yield* Effect.flip(failing), "storage broke", "the failed call did not spend the budget of 1")
        assert.strictEqual(yield* withBudget("finalize", accountId, Effect.succeed("ok")), "ok")
        const limited = yield* Effect.flip(withBudget("finalize", accountId, Effect.succeed("again")))
        assert.strictEqual(limited._tag, "RateLimited")
      }).pipe(Effect.provide(Layer.mergeAll(layerManualClock(T0), layerRandomIds))))
  })
