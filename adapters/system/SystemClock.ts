import { Effect, Layer } from "effect"
import { Clock } from "../../ports/Clock.ts"

export const layerSystemClock = Layer.succeed(Clock, Clock.of({ now: Effect.sync(() => new Date()) }))
