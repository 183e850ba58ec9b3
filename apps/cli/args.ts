// The CLI's one argument parser: node:util's parseArgs in strict mode, with -h/--help on every command and the same
// refusal everywhere (the problem and the usage on stderr, exit 2). Effect's CLI module would load effect into
// `check`, which must stay light (see commands/check.ts), and it needs @effect/platform-node, not a dependency here.
import { parseArgs, type ParseArgsOptionsConfig } from "node:util"
import { EXIT } from "./exitCodes.ts"
import { CliFailure } from "./failure.ts"
import type { CliIo } from "./io.ts"

export interface CommandLine<O extends ParseArgsOptionsConfig> {
  /** As typed after `pckgate`, e.g. `release`. */
  readonly name: string
  /** Printed on stdout for --help, and on stderr after a usage error. */
  readonly usage: string
  readonly options: O
}

export type Values<O extends ParseArgsOptionsConfig> = { readonly [K in keyof O]?: O[K]["type"] extends "string" ? string : boolean }

export interface Parsed<O extends ParseArgsOptionsConfig> {
  readonly values: Values<O>
  readonly positionals: ReadonlyArray<string>
}

const HELP = { help: { type: "boolean", short: "h" } } as const

/** The options of every command that talks to the service. */
export const SERVICE_OPTIONS = {
  url: { type: "string" },
  token: { type: "string" },
  "token-command": { type: "string" },
  json: { type: "boolean" },
} as const

/**
 * Why `argv` does not fit `options`, in the CLI's words; null when it fits. parseArgs' own messages are long and
 * change between Node versions, so the tokens of a lenient parse are checked first.
 */
const problemWith = (options: ParseArgsOptionsConfig, argv: ReadonlyArray<string>): string | null => {
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true })
  for (const token of tokens) {
    if (token.kind !== "option") continue
    const option = options[token.name]
    const shown = token.rawName
    if (option === undefined) return `unknown option ${shown}`
    if (option.type === "boolean" && token.value !== undefined) return `${shown} takes no value`
    if (option.type === "string" && (token.value === undefined || (token.inlineValue === false && token.value.startsWith("-") && token.value !== "-"))) {
      return `${shown} needs a value`
    }
  }
  return null
}

/** A usage error: the problem and the command's usage on stderr, exit 2. */
export const usageError = (line: CommandLine<ParseArgsOptionsConfig>, problem: string) =>
  new CliFailure(EXIT.cannotRun, `${line.name}: ${problem}\n${line.usage}`, { error: "usage", detail: problem })

/** The parsed command line, or "help" once the usage was printed on stdout. A usage error throws a CliFailure. */
export const parseCommandLine = <O extends ParseArgsOptionsConfig>(line: CommandLine<O>, argv: ReadonlyArray<string>, io: CliIo): Parsed<O> | "help" => {
  const options: ParseArgsOptionsConfig = { ...line.options, ...HELP }
  const problem = problemWith(options, argv)
  if (problem !== null) throw usageError(line, problem)
  const parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true })
  if (parsed.values["help"] === true) {
    io.stdout(`${line.usage}\n`)
    return "help"
  }
  return { values: parsed.values as Values<O>, positionals: parsed.positionals }
}

/** For commands that compute their own exit code; a CliFailure (a usage error included) is printed and ends it. */
export const withCommandLine = async <O extends ParseArgsOptionsConfig>(
  line: CommandLine<O>,
  argv: ReadonlyArray<string>,
  io: CliIo,
  body: (args: Parsed<O>) => Promise<number>,
): Promise<number> => {
  try {
    const args = parseCommandLine(line, argv, io)
    return args === "help" ? EXIT.ok : await body(args)
  } catch (error) {
    if (!(error instanceof CliFailure)) throw error
    io.stderr(`${error.message}\n`)
    return error.exitCode
  }
}
