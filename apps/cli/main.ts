// `npm run -s cli -- <command> …`: dispatches to the command table; exit codes are documented in the README.
import { commands } from "./commands.ts"
import { EXIT } from "./io.ts"

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
