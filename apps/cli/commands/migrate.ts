import { Cause, Effect, Option } from "effect"
import { layerSqlDatabase, SqlDatabase } from "../../../adapters/sql/index.ts"
import { recordsTarget } from "../../server/records.ts"
import { parseArgs } from "../args.ts"
import type { Command } from "../commands.ts"
import { EXIT } from "../io.ts"
import { serverConfigFor } from "../serverConfig.ts"

export const command: Command = {
  summary: "migrate [--data-dir <dir>]   apply pending database migrations (DATABASE_URL, else DATA_DIR/pckgate.sqlite); the server also does at start-up",
  async run(argv, io) {
    const args = parseArgs(argv, { strings: ["data-dir"], booleans: [] })
    if ("error" in args || args.positionals.length > 0) {
      io.stderr(`usage: ${command.summary}\n`)
      return EXIT.cannotRun
    }
    const config = serverConfigFor(args.values["data-dir"], io)
    if (config === null) return EXIT.cannotRun
    const exit = await Effect.runPromiseExit(
      SqlDatabase.useSync((database) => ({ description: database.description, migrated: database.migrated })).pipe(
        Effect.provide(layerSqlDatabase({ target: recordsTarget(config) })),
      ),
    )
    if (exit._tag === "Failure") {
      const error = Cause.findErrorOption(exit.cause)
      io.stderr(`migrate failed: ${Option.isSome(error) ? error.value.reason : Cause.pretty(exit.cause)}\n`)
      return EXIT.serviceFailure
    }
    const { description, migrated } = exit.value
    io.stdout(migrated.length === 0 ? `${description}: schema is current, nothing to apply\n` : `${description}: applied ${migrated.join(", ")}\n`)
    return EXIT.ok
  },
}
