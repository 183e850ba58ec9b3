// `activate <gameId> <version> [--reason …]`: an approved release goes live without a new review (a staged release's
// go-live, or any earlier approved build).
import { SERVICE_OPTIONS, usageError } from "../args.ts"
import { clientOptions, makeClient } from "../client.ts"
import { serviceCommand } from "../run.ts"
import { activate, printOutcome } from "./lifecycleCalls.ts"

const LINE = {
  name: "activate",
  usage: `usage: activate <gameId> <version> [--reason <text>] [--json] [--url URL] [--token TOKEN]
  Makes an approved release the active one (a staged go-live or a rollback); the service re-verifies its bytes first.
  -h, --help   print this help`,
  options: { reason: { type: "string" }, ...SERVICE_OPTIONS },
} as const

export const command = serviceCommand(LINE, async ({ values, positionals }, io) => {
  const [gameId, version, extra] = positionals
  if (gameId === undefined || version === undefined || extra !== undefined) throw usageError(LINE, "activate takes <gameId> <version>")
  const outcome = await activate(makeClient(clientOptions(values, io), io), gameId, version, values.reason)
  if (values.json === true) return outcome
  printOutcome(io, gameId, outcome)
  return null
})
