// `npm run -s cli -- <command> …`: dispatches to the command table; exit codes are documented in the README.
import { enableCompileCache } from "node:module"
import { commands } from "./commands.ts"
import { EXIT } from "./io.ts"

// Commands are imported on demand below; with Node's compile cache, later runs skip compiling (and stripping the types
// of) their modules: faster starts, and a standalone `check` stays far under 100 MB.
enableCompileCache()

const [name, ...argv] = process.argv.slice(2)
const load = name === undefined ? undefined : commands[name]
if (load === undefined) {
  const summaries = await Promise.all(Object.entries(commands).map(async ([n, l]) => `  ${(await l()).summary || n}`))
  process.stderr.write(`usage: pckgate <command> [options]\n\ncommands:\n${summaries.join("\n")}\n`)
  process.exit(name === undefined || name === "help" || name === "--help" ? EXIT.ok : EXIT.cannotRun)
}
const command = await load()
const code = await command.run(argv, {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
  stderrIsTty: process.stderr.isTTY === true,
})
process.exitCode = code
