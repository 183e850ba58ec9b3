import { Context, type Effect } from "effect"

/** The current time. The domain never reads the system clock itself. */
export class Clock extends Context.Service<Clock, {
  readonly now: Effect.Effect<Date>
}>()("pckgate/ports/Clock") {}
