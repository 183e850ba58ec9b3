// `rollback <gameId> --to <version> [--reason …]`: `activate` of an earlier approved build, named for what it is.
import { SERVICE_OPTIONS, usageError } from "../args.ts"
import { clientOptions, makeClient } from "../client.ts"
import { serviceCommand } from "../run.ts"
import { activate, printOutcome } from "./lifecycleCalls.ts"

const LINE = {
  name: "rollback",
  usage: `usage: rollback <gameId> --to <version> [--reason <text>] [--json] [--url URL] [--token TOKEN]
  Makes an earlier approved release active again, without a new review.
  -h, --help   print this help`,
  options: { to: { type: "string" }, reason: { type: "string" }, ...SERVICE_OPTIONS },
} as const

export const command = serviceCommand(LINE, async ({ values, positionals }, io) => {
  const [gameId, extra] = positionals
  if (gameId === undefined || extra !== undefined) throw usageError(LINE, "rollback takes <gameId>")
  if (values.to === undefined) throw usageError(LINE, "rollback needs --to <version>: the approved release to go back to")
  const outcome = await activate(makeClient(clientOptions(values, io), io), gameId, values.to, values.reason ?? `rollback to ${values.to}`)
  if (values.json === true) return outcome
  printOutcome(io, gameId, outcome)
  return null
})
