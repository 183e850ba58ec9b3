// A command that talks to the service: parse, run, print. A failure prints `error: <code> — <detail>` on stderr and
// ends with its exit code; with --json, stdout gets exactly one JSON result either way.
import { type ParseArgsOptionsConfig } from "node:util"
import { type CommandLine, type Parsed, parseCommandLine } from "./args.ts"
import type { Command } from "./commands.ts"
import { EXIT } from "./exitCodes.ts"
import { CliFailure } from "./failure.ts"
import type { CliIo } from "./io.ts"

export type CommandResult = Readonly<Record<string, unknown>> | null

export const serviceCommand = <O extends ParseArgsOptionsConfig>(
  line: CommandLine<O>,
  body: (args: Parsed<O>, io: CliIo) => Promise<CommandResult>,
): Command => ({
  run: async (argv, io) => {
    let json = false
    try {
      const args = parseCommandLine(line, argv, io)
      if (args === "help") return EXIT.ok
      json = (args.values as Readonly<Record<string, unknown>>)["json"] === true
      const result = await body(args, io)
      if (result !== null) io.stdout(`${JSON.stringify(result)}\n`)
      return EXIT.ok
    } catch (error) {
      if (!(error instanceof CliFailure)) throw error
      if (json) io.stdout(`${JSON.stringify({ ok: false, ...(error.json["error"] === undefined ? { error: error.message } : {}), ...error.json })}\n`)
      io.stderr(`${error.message}\n`)
      return error.exitCode
    }
  },
})
