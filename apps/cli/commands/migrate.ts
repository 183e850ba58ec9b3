// `migrate [--data-dir <dir>]`: applies pending database migrations, as the server does at start-up.
import { Cause, Effect, Option } from "effect"
import { layerSqlDatabase, SqlDatabase } from "../../../adapters/sql/index.ts"
import { recordsTarget } from "../../server/records.ts"
import { usageError, withCommandLine } from "../args.ts"
import type { Command } from "../commands.ts"
import { EXIT } from "../exitCodes.ts"
import { serverConfigFor } from "../serverConfig.ts"

const LINE = {
  name: "migrate",
  usage: `usage: migrate [--data-dir <dir>]
  Applies pending database migrations: DATABASE_URL, else DATA_DIR/pckgate.sqlite. The server also does at start-up.
  --data-dir   overrides DATA_DIR
  -h, --help   print this help`,
  options: { "data-dir": { type: "string" } },
} as const

export const command: Command = {
  run: (argv, io) =>
    withCommandLine(LINE, argv, io, async ({ values, positionals }) => {
      if (positionals.length > 0) throw usageError(LINE, `unexpected argument ${positionals[0]}`)
      const config = serverConfigFor(values["data-dir"], io)
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
    }),
}
