// `review list | show <gameId> <version> | diff <gameId> <version> | approve <gameId> <version> [--override-reason …] |
// reject <gameId> <version> --reason … | takedown | reinstate | takedown-game <gameId> | reinstate-game <gameId>`, and
// the gate's claim/unclaim/accept/unaccept (admins).
import { LifecycleOutcome, ReleaseDetail, ReviewDecision, ReviewQueue } from "../../../adapters/http/openapi/schemas.ts"
import { SERVICE_OPTIONS, usageError } from "../args.ts"
import { clientOptions, makeClient } from "../client.ts"
import { allItems } from "../pages.ts"
import { serviceCommand } from "../run.ts"
import { approveBody, GATE_USAGE, isGateAction, runGateAction } from "./reviewGate.ts"
import { diffReleaseCommand, showRelease } from "./reviewReading.ts"

const LINE = {
  name: "review",
  usage: `usage: review list
       review show <gameId> <version>
       review diff <gameId> <version> [--against <version>]
       review reject <gameId> <version> --reason <text>
       review takedown <gameId> <version> --reason <text>
       review reinstate <gameId> <version> --reason <text>
       review takedown-game <gameId> --reason <text>    every approved release of the game at once
       review reinstate-game <gameId> --reason <text>   reverses exactly that (releases taken down alone stay down)
${GATE_USAGE}
       (all take [--json] [--url URL] [--token TOKEN]; -h, --help prints this help)
  For administrators: the review queue (every page, oldest first), one release (scan, findings, capabilities and files
  changed against the active release), its unified diffs (against the active release or --against), and the decision.`,
  options: { reason: { type: "string" }, "override-reason": { type: "string" }, against: { type: "string" }, ...SERVICE_OPTIONS },
} as const

const path = (gameId: string, version: string, action = "") =>
  `/api/admin/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}${action}`

export const command = serviceCommand(
  LINE,
  async ({ values, positionals }, io) => {
    const [action, gameId, version, extra] = positionals
    const json = values.json === true
    if (action === undefined) {
      throw usageError(LINE, "missing list, show, diff, approve, reject, takedown, reinstate, takedown-game, reinstate-game, claim, unclaim, accept or unaccept")
    }
    const actions = ["list", "show", "diff", "approve", "reject", "takedown", "reinstate", "takedown-game", "reinstate-game"]
    if (!actions.includes(action) && !isGateAction(action)) throw usageError(LINE, `unknown action ${action}`)
    const client = makeClient(clientOptions(values, io), io)
    if (action === "list") {
      if (gameId !== undefined) throw usageError(LINE, `unexpected argument ${gameId}`)
      const items = await allItems(client, "/api/admin/review-queue", ReviewQueue, (page) => page.items)
      if (json) return { items }
      if (items.length === 0) io.stdout("the review queue is empty\n")
      for (const item of items) {
        io.stdout(`${item.gameId} ${item.version}  ${item.gameName}  by ${item.ownerId}  waiting ${Math.round(item.waitingSeconds / 60)} min  ${item.sha256}\n`)
      }
      return null
    }
    if (action === "takedown-game" || action === "reinstate-game") {
      if (gameId === undefined || version !== undefined) throw usageError(LINE, `review ${action} takes <gameId>`)
      if (values.reason === undefined) throw usageError(LINE, `review ${action} needs --reason <text>: the creator and the timeline see it`)
      const step = action === "takedown-game" ? "takedown" : "reinstate"
      const outcome = await client.call("POST", `/api/admin/games/${encodeURIComponent(gameId)}/${step}`, LifecycleOutcome, { body: { reason: values.reason } })
      if (json) return outcome
      const statuses = outcome.releases.map((r) => `${r.version} ${r.status}`).join(", ")
      io.stdout(`${gameId}: ${statuses === "" ? "no release changed" : statuses}; game ${outcome.gameStatus}, active version ${outcome.activeVersion ?? "none"}\n`)
      return null
    }
    if (isGateAction(action)) {
      const what = action === "accept" || action === "unaccept" ? "<fingerprint>" : "<version>"
      if (gameId === undefined || version === undefined || extra !== undefined) throw usageError(LINE, `review ${action} takes <gameId> ${what}`)
      if (action === "accept" && values.reason === undefined) throw usageError(LINE, "review accept needs --reason <text>: reviewers and the creator see it")
      return runGateAction(action, client, io, { gameId, target: version, reason: values.reason, json })
    }
    if (gameId === undefined || version === undefined || extra !== undefined) throw usageError(LINE, `review ${action} takes <gameId> <version>`)
    if (action === "show") return showRelease(client, io, gameId, version, json)
    if (action === "diff") return diffReleaseCommand(client, io, gameId, version, values.against, json)
    const reason = values.reason
    if (action === "takedown" || action === "reinstate") {
      if (reason === undefined) throw usageError(LINE, `review ${action} needs --reason <text>: the creator and the timeline see it`)
      const outcome = await client.call("POST", path(gameId, version, `/${action}`), LifecycleOutcome, { body: { reason } })
      if (json) return outcome
      io.stdout(`${gameId} ${version}: ${outcome.releases[0]?.status ?? action}; game ${outcome.gameStatus}, active version ${outcome.activeVersion ?? "none"}
`)
      return null
    }
    if (action === "reject" && reason === undefined) throw usageError(LINE, "review reject needs --reason <text>: the creator sees it")
    const outcome = await client.call("POST", path(gameId, version, `/${action}`), ReviewDecision, action === "reject" ? { body: { reason } } : approveBody(values["override-reason"]))
    if (json) return outcome
    io.stdout(`${gameId} ${version}: ${outcome.status}; game ${outcome.gameStatus}, active version ${outcome.activeVersion ?? "none"}\n`)
    return null
  },
)
