// The command line's first word: a command, or --help / --version. Anything else is a usage error (exit 2).
import { commands, isCommandName, SUMMARIES } from "./commands.ts"
import { EXIT } from "./exitCodes.ts"
import type { CliIo } from "./io.ts"
import { cliVersion } from "./version.ts"

const usage = (): string => {
  const summaries = Object.values(SUMMARIES).map((summary) => `  ${summary}`)
  return `usage: pckgate <command> [options]        (in this repository: npm run -s cli -- <command> [options])

commands:
${summaries.join("\n")}

'pckgate <command> --help' shows a command's options; 'pckgate --version' prints the version.
Exit codes: 0 done, 1 rejected or findings, 2 cannot run, 3 service or network failure, 4 rate limited,
5 still waiting at --timeout, 6 not yet (try again later).
`
}

export const dispatch = async (argv: ReadonlyArray<string>, io: CliIo): Promise<number> => {
  const [name, ...rest] = argv
  if (name === "--version") {
    io.stdout(`${cliVersion()}\n`)
    return EXIT.ok
  }
  if (name === "--help" || name === "-h" || name === "help") {
    const topic = rest[0]
    if (topic === undefined) {
      io.stdout(usage())
      return EXIT.ok
    }
    if (isCommandName(topic)) return (await commands[topic]()).run(["--help"], io)
    io.stderr(`pckgate: unknown command '${topic}'\n${usage()}`)
    return EXIT.cannotRun
  }
  if (name === undefined || !isCommandName(name)) {
    const problem = name === undefined ? "missing <command>" : name.startsWith("-") ? `unknown option ${name}` : `unknown command '${name}'`
    io.stderr(`pckgate: ${problem}\n${usage()}`)
    return EXIT.cannotRun
  }
  return (await commands[name]()).run(rest, io)
}
