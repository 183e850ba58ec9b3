import { Effect, Layer, Queue } from "effect"
import { ScanWake } from "../../ports/ScanWake.ts"

/** The in-process wake signal: wakes that come while one is already waiting to be taken collapse into it. */
export const makeScanWake = Effect.map(Queue.dropping<true>(1), (queue) =>
  ScanWake.of({
    wake: Effect.asVoid(Queue.offer(queue, true)),
    waitForWake: Effect.asVoid(Queue.take(queue)),
  }))

export const layerScanWake = Layer.effect(ScanWake, makeScanWake)
