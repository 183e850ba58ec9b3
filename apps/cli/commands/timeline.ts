// `timeline <gameId>`: every state change of the game and its releases, oldest first (every page).
import { GameTimeline } from "../../../adapters/http/openapi/schemas.ts"
import { SERVICE_OPTIONS, usageError } from "../args.ts"
import { clientOptions, makeClient } from "../client.ts"
import { allItems } from "../pages.ts"
import { serviceCommand } from "../run.ts"

const LINE = {
  name: "timeline",
  usage: `usage: timeline <gameId> [--json] [--url URL] [--token TOKEN]
  Who did what, when and why, for a game of yours (administrators: any game).
  -h, --help   print this help`,
  options: { ...SERVICE_OPTIONS },
} as const

export const command = serviceCommand(LINE, async ({ values, positionals }, io) => {
  const [gameId, extra] = positionals
  if (gameId === undefined || extra !== undefined) throw usageError(LINE, "timeline takes <gameId>")
  const client = makeClient(clientOptions(values, io), io)
  const events = await allItems(client, `/api/games/${encodeURIComponent(gameId)}/timeline`, GameTimeline, (page) => page.events)
  if (values.json === true) return { events }
  for (const e of events) io.stdout(`${e.at}  ${e.kind}${e.version === null ? "" : ` ${e.version}`}  by ${e.actor}${e.reason === null ? "" : `  — ${e.reason}`}\n`)
  return null
})
