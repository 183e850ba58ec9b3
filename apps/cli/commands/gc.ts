import { Cause, Effect, Layer, Option } from "effect"
import { layerSqlRecords } from "../../../adapters/sql/index.ts"
import { layerSystemClock } from "../../../adapters/system/SystemClock.ts"
import { DEFAULT_SWEEP_GRACE_SECONDS, sweep } from "../../../domain/maintenance/Sweep.ts"
import { recordsTarget } from "../../server/records.ts"
import { selectStorage } from "../../server/storage.ts"
import { parseArgs } from "../args.ts"
import type { Command } from "../commands.ts"
import { EXIT } from "../io.ts"
import { serverConfigFor } from "../serverConfig.ts"

export const command: Command = {
  summary: `gc [--grace-seconds <n>] [--data-dir <dir>]   delete abandoned upload files, expired upload intents and orphaned objects older than n seconds (default ${DEFAULT_SWEEP_GRACE_SECONDS}), as the server's sweeper does`,
  async run(argv, io) {
    const args = parseArgs(argv, { strings: ["grace-seconds", "data-dir"], booleans: [] })
    const grace = "error" in args ? Number.NaN : Number(args.values["grace-seconds"] ?? DEFAULT_SWEEP_GRACE_SECONDS)
    if ("error" in args || args.positionals.length > 0 || !Number.isSafeInteger(grace) || grace < 0) {
      io.stderr(`usage: ${command.summary}\n`)
      return EXIT.cannotRun
    }
    const config = serverConfigFor(args.values["data-dir"], io)
    if (config === null) return EXIT.cannotRun
    const storage = await selectStorage(config, () => config.baseUrl ?? "http://localhost")
    const layer = Layer.mergeAll(layerSqlRecords({ target: recordsTarget(config) }), storage.layer).pipe(Layer.provideMerge(layerSystemClock))
    const exit = await Effect.runPromiseExit(sweep(grace).pipe(Effect.provide(layer)))
    if (exit._tag === "Failure") {
      const error = Cause.findErrorOption(exit.cause)
      const reason = Option.isSome(error) && typeof error.value === "object" && error.value !== null && "reason" in error.value
        ? String(error.value.reason)
        : Cause.pretty(exit.cause)
      io.stderr(`gc failed: ${reason}\n`)
      return EXIT.serviceFailure
    }
    const report = exit.value
    for (const key of report.deletedObjects) io.stdout(`deleted ${key}\n`)
    io.stdout(
      `expired intents removed: ${report.expiredIntents}; objects deleted: ${report.deletedObjects.length}; kept: ${report.keptObjects}; ` +
        `abandoned upload files removed: ${report.abandonedWrites} (${report.abandonedBytes} bytes)\n`,
    )
    return EXIT.ok
  },
}
