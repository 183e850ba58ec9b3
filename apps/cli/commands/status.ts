// `status [<gameId>] [--version v]`: the caller's games, where one game stands, or one of its releases.
import { GameDetail, MyGames, ReleaseDetail } from "../../../adapters/http/openapi/schemas.ts"
import { SERVICE_OPTIONS, usageError } from "../args.ts"
import { clientOptions, makeClient } from "../client.ts"
import { allItems } from "../pages.ts"
import { serviceCommand } from "../run.ts"

const LINE = {
  name: "status",
  usage: `usage: status [<gameId> [--version <v>]] [--json] [--url URL] [--token TOKEN]
  Without a game: every game of yours with its status. With one: its status and releases; with --version, that release.
  -h, --help   print this help`,
  options: { version: { type: "string" }, ...SERVICE_OPTIONS },
} as const

const queueLine = (queue: { position: number; ahead: number; estimatedWaitSeconds: number | null }) =>
  `; in the review queue at position ${queue.position} (${queue.ahead} ahead), ${
    queue.estimatedWaitSeconds === null
      ? "no estimate yet (fewer than 5 decisions)"
      : `about ${Math.round(queue.estimatedWaitSeconds / 60)} min more (median decision time of the last 50 decisions)`
  }`

const releaseLine = (release: typeof ReleaseDetail.Type) => {
  if (!("status" in release)) return "approved"
  const reason = release.rejectionReason ?? release.takedownReason
  return `${release.status}${reason !== null ? ` — ${reason}` : ""}${"queue" in release && release.queue !== undefined ? queueLine(release.queue) : ""}`
}

export const command = serviceCommand(
  LINE,
  async ({ values, positionals }, io) => {
    const [game, extra] = positionals
    if (extra !== undefined) throw usageError(LINE, `unexpected argument ${extra}`)
    const json = values.json === true
    const client = makeClient(clientOptions(values, io), io)
    if (game === undefined) {
      if (values.version !== undefined) throw usageError(LINE, "--version needs a <gameId>")
      const games = await allItems(client, "/api/me/games", MyGames, (page) => page.games)
      if (json) return { games }
      if (games.length === 0) io.stdout("you have no games yet\n")
      for (const g of games) io.stdout(`${g.name} (${g.gameId}): ${g.status}, active version ${g.activeVersion ?? "none"}\n`)
      return null
    }
    const gameId = encodeURIComponent(game)
    if (values.version !== undefined) {
      const release = await client.call("GET", `/api/games/${gameId}/releases/${encodeURIComponent(values.version)}`, ReleaseDetail)
      if (json) return release
      io.stdout(`${release.version}: ${releaseLine(release)}\n`)
      return null
    }
    const detail = await client.call("GET", `/api/games/${gameId}`, GameDetail)
    if (json) return detail
    io.stdout(`${detail.name} (${detail.gameId}): ${detail.status}, active version ${detail.activeVersion ?? "none"}\n`)
    for (const r of "releases" in detail ? detail.releases : []) {
      io.stdout(`  ${r.version}  ${r.status}  ${r.sha256}${r.rejectionReason !== null ? `  — ${r.rejectionReason}` : ""}\n`)
    }
    return null
  },
)
