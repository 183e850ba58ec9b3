// `wait <gameId> --version v --until reviewed|published [--timeout s]`: polls with backoff, so CI can publish without
// treating "waiting for review" as a failure. Exit 0 reached, 1 rejected, 5 still waiting at the timeout.
import { parseArgs } from "../args.ts"
import { CliFailure, clientOptions, failureFrom, makeClient, SERVICE_OPTIONS } from "../client.ts"
import type { Command } from "../commands.ts"
import { EXIT } from "../io.ts"
import { runCommand } from "../run.ts"

const USAGE = "usage: wait <gameId> --version <v> --until reviewed|published [--timeout <seconds>] [--interval <seconds>] [--json] [--token-command CMD]"
const MAX_INTERVAL_MS = 300_000

export const command: Command = {
  summary: "wait <gameId> --version v --until reviewed|published [--timeout s]   poll until reviewed (exit 0), rejected (1) or timeout (5)",
  run: (argv, io) =>
    runCommand(io, argv.includes("--json"), async () => {
      const args = parseArgs(argv, { strings: ["version", "until", "timeout", "interval", ...SERVICE_OPTIONS], booleans: ["json"] })
      if ("error" in args || args.positionals.length !== 1) throw new CliFailure(EXIT.cannotRun, USAGE)
      const { version, until } = args.values as Record<string, string | undefined>
      const timeoutSeconds = Number(args.values["timeout"] ?? 3600)
      let intervalMs = Number(args.values["interval"] ?? 10) * 1000
      if (version === undefined || (until !== "reviewed" && until !== "published") || !(timeoutSeconds >= 0) || !(intervalMs > 0)) {
        throw new CliFailure(EXIT.cannotRun, USAGE)
      }
      const client = makeClient(clientOptions(args.values, io), io)
      const gameId = encodeURIComponent(args.positionals[0]!)
      const deadline = Date.now() + timeoutSeconds * 1000
      for (let polls = 1; ; polls++) {
        const reply = await client.send("GET", `/api/games/${gameId}/releases/${encodeURIComponent(version)}`)
        // Outages while waiting are retried until the deadline; only a definite answer ends the wait early.
        if (!reply.ok && reply.error.status < 500 && reply.error.status !== 429) throw failureFrom(reply.error)
        const status: string | undefined = reply.ok ? reply.body.status : undefined
        if (status === "rejected") {
          throw new CliFailure(EXIT.rejectedOrFindings, `rejected: ${reply.ok ? reply.body.rejectionReason : ""}`, { error: "rejected", status, rejectionReason: reply.ok ? reply.body.rejectionReason : null, polls })
        }
        if (status === "approved") {
          const game = until === "published" ? await client.expect("GET", `/api/games/${gameId}`) : null
          if (game === null || game.status === "published") {
            if (args.values["json"] === true) return { ok: true, status, gameStatus: game?.status ?? null, polls }
            io.stdout(`${version} is ${until === "published" ? "published" : "approved"}\n`)
            return null
          }
        }
        const remaining = deadline - Date.now()
        if (remaining <= 0) {
          throw new CliFailure(EXIT.stillWaiting, `still waiting: ${version} is ${status ?? "unreachable"} after ${timeoutSeconds} s`, { error: "still_waiting", status: status ?? null, polls })
        }
        io.stderr(`${version}: ${status ?? "service unavailable"}; next check in ${Math.round(Math.min(intervalMs, remaining) / 1000)} s\n`)
        await new Promise((r) => setTimeout(r, Math.min(intervalMs, remaining)))
        intervalMs = Math.min(MAX_INTERVAL_MS, intervalMs * 1.5)
      }
    }),
}
