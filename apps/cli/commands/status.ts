// `status <gameId> [--version v]`: where a game or one of its releases stands.
import { parseArgs } from "../args.ts"
import { CliFailure, clientOptions, makeClient, SERVICE_OPTIONS } from "../client.ts"
import type { Command } from "../commands.ts"
import { EXIT } from "../io.ts"
import { runCommand } from "../run.ts"

const USAGE = "usage: status <gameId> [--version <v>] [--json] [--url URL] [--token TOKEN]"

export const command: Command = {
  summary: "status <gameId> [--version v]   a game's catalog status and releases, or one release",
  run: (argv, io) =>
    runCommand(io, argv.includes("--json"), async () => {
      const args = parseArgs(argv, { strings: ["version", ...SERVICE_OPTIONS], booleans: ["json"] })
      if ("error" in args || args.positionals.length !== 1) throw new CliFailure(EXIT.cannotRun, USAGE)
      const client = makeClient(clientOptions(args.values, io), io)
      const gameId = encodeURIComponent(args.positionals[0]!)
      const version = args.values["version"] as string | undefined
      if (version !== undefined) {
        const release = await client.expect("GET", `/api/games/${gameId}/releases/${encodeURIComponent(version)}`)
        if (args.values["json"] === true) return release
        io.stdout(`${release.version}: ${release.status ?? "approved"}${release.rejectionReason ? ` — ${release.rejectionReason}` : ""}\n`)
        return null
      }
      const game = await client.expect("GET", `/api/games/${gameId}`)
      if (args.values["json"] === true) return game
      io.stdout(`${game.name} (${game.gameId}): ${game.status}, active version ${game.activeVersion ?? "none"}\n`)
      for (const r of game.releases ?? []) {
        io.stdout(`  ${r.version}  ${r.status}  ${r.sha256}${r.rejectionReason ? `  — ${r.rejectionReason}` : ""}\n`)
      }
      return null
    }),
}
