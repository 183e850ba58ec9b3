// `review list | show <gameId> <version> | approve <gameId> <version> [--override-reason …] | reject <gameId> <version> --reason …`
// and the gate's claim/unclaim/accept/unaccept (admins).
import { ReleaseDetail, ReviewDecision, ReviewQueue } from "../../../adapters/http/openapi/schemas.ts"
import { SERVICE_OPTIONS, usageError } from "../args.ts"
import { clientOptions, makeClient } from "../client.ts"
import { allItems } from "../pages.ts"
import { serviceCommand } from "../run.ts"
import { approveBody, GATE_USAGE, isGateAction, runGateAction } from "./reviewGate.ts"

const LINE = {
  name: "review",
  usage: `usage: review list
       review show <gameId> <version>
       review approve <gameId> <version>
       review reject <gameId> <version> --reason <text>
${GATE_USAGE}
       (all take [--json] [--url URL] [--token TOKEN]; -h, --help prints this help)
  For administrators: the review queue (every page, oldest first), one release, and the decision on it.`,
  options: { reason: { type: "string" }, "override-reason": { type: "string" }, ...SERVICE_OPTIONS },
} as const

const path = (gameId: string, version: string, action = "") =>
  `/api/admin/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}${action}`

export const command = serviceCommand(
  LINE,
  async ({ values, positionals }, io) => {
    const [action, gameId, version, extra] = positionals
    const json = values.json === true
    if (action === undefined) throw usageError(LINE, "missing list, show, approve or reject")
    if (action !== "list" && action !== "show" && action !== "approve" && action !== "reject" && !isGateAction(action)) {
      throw usageError(LINE, `unknown action ${action}`)
    }
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
    if (isGateAction(action)) {
      const what = action === "accept" || action === "unaccept" ? "<fingerprint>" : "<version>"
      if (gameId === undefined || version === undefined || extra !== undefined) throw usageError(LINE, `review ${action} takes <gameId> ${what}`)
      if (action === "accept" && values.reason === undefined) throw usageError(LINE, "review accept needs --reason <text>: reviewers and the creator see it")
      return runGateAction(action, client, io, { gameId, target: version, reason: values.reason, json })
    }
    if (gameId === undefined || version === undefined || extra !== undefined) throw usageError(LINE, `review ${action} takes <gameId> <version>`)
    if (action === "show") {
      const release = await client.call("GET", `/api/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}`, ReleaseDetail)
      if (json) return release
      const status = "status" in release ? `${release.status}, ` : ""
      const submitted = "createdAt" in release ? `, submitted ${release.createdAt}` : ""
      io.stdout(`${gameId} ${release.version}: ${status}${release.sizeBytes} bytes, sha256 ${release.sha256}${submitted}\n`)
      return null
    }
    const reason = values.reason
    if (action === "reject" && reason === undefined) throw usageError(LINE, "review reject needs --reason <text>: the creator sees it")
    const outcome = await client.call("POST", path(gameId, version, `/${action}`), ReviewDecision, action === "reject" ? { body: { reason } } : approveBody(values["override-reason"]))
    if (json) return outcome
    io.stdout(`${gameId} ${version}: ${outcome.status}; game ${outcome.gameStatus}, active version ${outcome.activeVersion ?? "none"}\n`)
    return null
  },
)
