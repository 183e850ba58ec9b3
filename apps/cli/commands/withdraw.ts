// `withdraw <gameId> <version>`: a pending release leaves the review queue (its version stays used).
import { LifecycleOutcome } from "../../../adapters/http/openapi/schemas.ts"
import { SERVICE_OPTIONS, usageError } from "../args.ts"
import { clientOptions, makeClient } from "../client.ts"
import { serviceCommand } from "../run.ts"
import { printOutcome, releasePath } from "./lifecycleCalls.ts"

const LINE = {
  name: "withdraw",
  usage: `usage: withdraw <gameId> <version> [--json] [--url URL] [--token TOKEN]
  Takes a pending release of yours out of the review queue; the version stays used (upload a higher one).
  -h, --help   print this help`,
  options: { ...SERVICE_OPTIONS },
} as const

export const command = serviceCommand(LINE, async ({ values, positionals }, io) => {
  const [gameId, version, extra] = positionals
  if (gameId === undefined || version === undefined || extra !== undefined) throw usageError(LINE, "withdraw takes <gameId> <version>")
  const outcome = await makeClient(clientOptions(values, io), io).call("POST", releasePath(gameId, version, "withdraw"), LifecycleOutcome)
  if (values.json === true) return outcome
  printOutcome(io, gameId, outcome)
  return null
})
