// `review list | show <gameId> <version> | approve <gameId> <version> | reject <gameId> <version> --reason …` (admins).
import { parseArgs } from "../args.ts"
import { CliFailure, clientOptions, makeClient, SERVICE_OPTIONS } from "../client.ts"
import type { Command } from "../commands.ts"
import { EXIT } from "../io.ts"
import { runCommand } from "../run.ts"

const USAGE = `usage: review list
       review show <gameId> <version>
       review approve <gameId> <version>
       review reject <gameId> <version> --reason <text>
       (all take [--json] [--url URL] [--token TOKEN])`

const path = (gameId: string, version: string, action = "") =>
  `/api/admin/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}${action}`

export const command: Command = {
  summary: "review list | show | approve | reject --reason   the review queue, for administrators",
  run: (argv, io) =>
    runCommand(io, argv.includes("--json"), async () => {
      const args = parseArgs(argv, { strings: ["reason", ...SERVICE_OPTIONS], booleans: ["json"] })
      if ("error" in args) throw new CliFailure(EXIT.cannotRun, USAGE)
      const [action, gameId, version, ...extra] = args.positionals
      const json = args.values["json"] === true
      const client = makeClient(clientOptions(args.values, io), io)
      if (action === "list" && gameId === undefined) {
        const queue = await client.expect("GET", "/api/admin/review-queue")
        if (json) return queue
        if (queue.items.length === 0) io.stdout("the review queue is empty\n")
        for (const item of queue.items) {
          io.stdout(`${item.gameId} ${item.version}  ${item.gameName}  by ${item.ownerId}  waiting ${Math.round(item.waitingSeconds / 60)} min  ${item.sha256}\n`)
        }
        return null
      }
      if (gameId === undefined || version === undefined || extra.length > 0) throw new CliFailure(EXIT.cannotRun, USAGE)
      if (action === "show") {
        const release = await client.expect("GET", `/api/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}`)
        if (json) return release
        io.stdout(`${gameId} ${release.version}: ${release.status}, ${release.sizeBytes} bytes, sha256 ${release.sha256}, submitted ${release.createdAt}\n`)
        return null
      }
      if (action === "approve" || action === "reject") {
        const reason = args.values["reason"]
        if (action === "reject" && typeof reason !== "string") throw new CliFailure(EXIT.cannotRun, "review reject needs --reason <text>: the creator sees it")
        const outcome = await client.expect("POST", path(gameId, version, `/${action}`), action === "reject" ? { reason } : undefined)
        if (json) return outcome
        io.stdout(`${gameId} ${version}: ${outcome.status}; game ${outcome.gameStatus}, active version ${outcome.activeVersion ?? "none"}\n`)
        return null
      }
      throw new CliFailure(EXIT.cannotRun, USAGE)
    }),
}
