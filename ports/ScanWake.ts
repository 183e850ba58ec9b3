import { Context, type Effect } from "effect"

/**
 * An in-process signal that a release waits to be scanned: finalize raises it, the scan worker waits for it next to
 * its timer, so a scan starts at once instead of on the next tick. Optional for use cases (embedders without a worker
 * need none); other instances still find the release on their own timer.
 */
export class ScanWake extends Context.Service<ScanWake, {
  /** Wakes the waiting worker (or the next one that waits); never blocks. */
  readonly wake: Effect.Effect<void>
  /** Completes at the next wake, or at once when one came since the last wait. */
  readonly waitForWake: Effect.Effect<void>
}>()("pckgate/ports/ScanWake") {}
