import { Context, Effect, Layer } from "effect"
import { Clock } from "../../ports/Clock.ts"

/** A clock that moves only when told: budgets, expiries and queues become deterministic in tests. */
export class ManualClock extends Context.Service<ManualClock, {
  set(at: Date): void
  advance(seconds: number): void
  current(): Date
}>()("pckgate/adapters/memory/ManualClock") {}

/** Provides both Clock (for the domain) and ManualClock (for the test that drives it). */
export const layerManualClock = (start: Date = new Date("2026-01-01T00:00:00.000Z")) =>
  Layer.effectContext(
    Effect.sync(() => {
      let now = start.getTime()
      const manual = ManualClock.of({
        set: (at) => void (now = at.getTime()),
        advance: (seconds) => void (now += seconds * 1000),
        current: () => new Date(now),
      })
      return Context.make(ManualClock, manual).pipe(Context.add(Clock, Clock.of({ now: Effect.sync(() => new Date(now)) })))
    }),
  )
