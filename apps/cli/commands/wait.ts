// `wait <gameId> --version v --until reviewed|published [--timeout s]`: polls with backoff, so CI can publish without
// treating "waiting for review" as a failure. Exit 0 reached, 1 rejected, 5 still waiting at the timeout.
import { GameDetail, ReleaseDetail } from "../../../adapters/http/openapi/schemas.ts"
import { SERVICE_OPTIONS, usageError } from "../args.ts"
import { clientOptions, failureFrom, makeClient } from "../client.ts"
import { cliOutcome } from "../failure.ts"
import { serviceCommand } from "../run.ts"

const LINE = {
  name: "wait",
  usage: `usage: wait <gameId> --version <v> --until reviewed|published [--timeout <seconds>] [--interval <seconds>]
            [--json] [--url URL] [--token TOKEN] [--token-command CMD]
  Polls with backoff (from --interval, default 10 s, up to 5 min) until the release is reviewed or published.
  Outages while waiting are retried until --timeout (default 3600 s).
  --token-command   run to get a fresh token when the service answers 401 (tokens last an hour, reviews take days)
  -h, --help        print this help
exit: 0 reached, 1 rejected, 5 still waiting at the timeout`,
  options: { version: { type: "string" }, until: { type: "string" }, timeout: { type: "string" }, interval: { type: "string" }, ...SERVICE_OPTIONS },
} as const
const MAX_INTERVAL_MS = 300_000

export const command = serviceCommand(
  LINE,
  async ({ values, positionals }, io) => {
    const [game, extra] = positionals
    const { version, until } = values
    const timeoutSeconds = Number(values.timeout ?? 3600)
    let intervalMs = Number(values.interval ?? 10) * 1000
    if (game === undefined || extra !== undefined) throw usageError(LINE, game === undefined ? "missing <gameId>" : `unexpected argument ${extra}`)
    if (version === undefined) throw usageError(LINE, "missing --version <v>")
    if (until !== "reviewed" && until !== "published") throw usageError(LINE, "--until must be reviewed or published")
    if (!(timeoutSeconds >= 0) || !(intervalMs > 0)) throw usageError(LINE, "--timeout and --interval take a number of seconds")
    const client = makeClient({ ...clientOptions(values, io), gameId: game }, io)
    const gameId = encodeURIComponent(game)
    const deadline = Date.now() + timeoutSeconds * 1000
    for (let polls = 1;; polls++) {
      const reply = await client.attempt("GET", `/api/games/${gameId}/releases/${encodeURIComponent(version)}`, ReleaseDetail)
      // Outages while waiting are retried until the deadline; only a definite answer ends the wait early.
      if (!reply.ok && reply.error.status !== 0 && reply.error.status < 500 && reply.error.status !== 429) throw failureFrom(reply.error)
      // Only an approved release is visible without its review fields.
      const status = reply.ok ? ("status" in reply.value ? reply.value.status : "approved") : undefined
      if (reply.ok && "status" in reply.value && reply.value.status === "rejected") {
        const reason = reply.value.rejectionReason
        throw cliOutcome("rejected", `rejected: ${reason ?? ""}`, { status: "rejected", rejectionReason: reason, polls })
      }
      if (status === "approved") {
        const detail = until === "published" ? await client.call("GET", `/api/games/${gameId}`, GameDetail) : null
        if (detail === null || detail.status === "published") {
          if (values.json === true) return { ok: true, status, gameStatus: detail?.status ?? null, polls }
          io.stdout(`${version} is ${until === "published" ? "published" : "approved"}\n`)
          return null
        }
      }
      const remaining = deadline - Date.now()
      if (remaining <= 0) {
        throw cliOutcome("still_waiting", `still waiting: ${version} is ${status ?? "unreachable"} after ${timeoutSeconds} s`, { status: status ?? null, polls })
      }
      io.stderr(`${version}: ${status ?? (reply.ok ? "" : reply.error.code)}; next check in ${Math.round(Math.min(intervalMs, remaining) / 1000)} s\n`)
      await new Promise((r) => setTimeout(r, Math.min(intervalMs, remaining)))
      intervalMs = Math.min(MAX_INTERVAL_MS, intervalMs * 1.5)
    }
  },
)
