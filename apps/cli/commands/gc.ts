// `gc [--grace-seconds <n>] [--data-dir <dir>]`: what the server's sweeper does, on demand.
import { Cause, Effect, Layer, Option } from "effect"
import { layerSqlRecords } from "../../../adapters/sql/index.ts"
import { layerSystemClock } from "../../../adapters/system/SystemClock.ts"
import { DEFAULT_SWEEP_GRACE_SECONDS, sweep } from "../../../domain/maintenance/Sweep.ts"
import { recordsTarget } from "../../server/records.ts"
import { selectStorage } from "../../server/storage.ts"
import { usageError, withCommandLine } from "../args.ts"
import type { Command } from "../commands.ts"
import { EXIT } from "../exitCodes.ts"
import { serverConfigFor } from "../serverConfig.ts"

const LINE = {
  name: "gc",
  usage: `usage: gc [--grace-seconds <n>] [--data-dir <dir>]
  Deletes abandoned upload files, expired upload intents and orphaned objects older than n seconds
  (default ${DEFAULT_SWEEP_GRACE_SECONDS}), as the server's sweeper does.
  --data-dir   overrides DATA_DIR
  -h, --help   print this help`,
  options: { "grace-seconds": { type: "string" }, "data-dir": { type: "string" } },
} as const

export const command: Command = {
  run: (argv, io) =>
    withCommandLine(LINE, argv, io, async ({ values, positionals }) => {
      if (positionals.length > 0) throw usageError(LINE, `unexpected argument ${positionals[0]}`)
      const grace = Number(values["grace-seconds"] ?? DEFAULT_SWEEP_GRACE_SECONDS)
      if (!Number.isSafeInteger(grace) || grace < 0) throw usageError(LINE, `--grace-seconds must be a whole number of seconds, not '${values["grace-seconds"]}'`)
      const config = serverConfigFor(values["data-dir"], io)
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
    }),
}
