// The review gate's CLI actions (issue 15): `review claim|unclaim <gameId> <version>`, `review accept|unaccept
// <gameId> <fingerprint> [--reason …]`, and the override of `review approve`. Exit codes come from the one table:
// claimed and scan_pending → 6 (clears with time), findings_unresolved → 2.
import { Schema } from "effect"
import { AcceptedFinding, ReviewClaim } from "../../../adapters/http/openapi/schemas.ts"
import type { Client } from "../client.ts"
import type { CliIo } from "../io.ts"
import type { CommandResult } from "../run.ts"

export const GATE_ACTIONS = ["claim", "unclaim", "accept", "unaccept"] as const
export type GateAction = (typeof GATE_ACTIONS)[number]

export const GATE_USAGE = `       review approve <gameId> <version> [--override-reason <text>]   (required while error findings are unresolved)
       review claim <gameId> <version>       hold it for 30 minutes (again: renew); review unclaim ends your claim
       review accept <gameId> <fingerprint> --reason <text>   accept a finding for the game (every version that has it)
       review unaccept <gameId> <fingerprint>`

export const isGateAction = (action: string): action is GateAction => (GATE_ACTIONS as ReadonlyArray<string>).includes(action)

/** The approve call's body: an override only when a reason was given. */
export const approveBody = (overrideReason: string | undefined) =>
  overrideReason === undefined ? {} : { body: { override: { reason: overrideReason } } }

const releasePath = (gameId: string, version: string) =>
  `/api/admin/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}/claim`
const findingPath = (gameId: string, fingerprint: string) =>
  `/api/admin/games/${encodeURIComponent(gameId)}/findings/${encodeURIComponent(fingerprint)}/accept`

/** Runs one gate action; returns the JSON to print with --json (or null once the human line was printed). */
export const runGateAction = async (
  action: GateAction,
  client: Client,
  io: CliIo,
  args: { readonly gameId: string; readonly target: string; readonly reason: string | undefined; readonly json: boolean },
): Promise<CommandResult> => {
  const { gameId, target, json } = args
  if (action === "claim") {
    const claim = await client.call("POST", releasePath(gameId, target), ReviewClaim)
    if (json) return claim
    io.stdout(`${gameId} ${target}: claimed by ${claim.claimedBy} until ${claim.claimedUntil}\n`)
    return null
  }
  if (action === "unclaim") {
    await client.call("DELETE", releasePath(gameId, target), Schema.Unknown)
    if (json) return { gameId, version: target, claimedBy: null }
    io.stdout(`${gameId} ${target}: not claimed by you any more\n`)
    return null
  }
  if (action === "accept") {
    const accepted = await client.call("POST", findingPath(gameId, target), AcceptedFinding, { body: { reason: args.reason } })
    if (json) return accepted
    io.stdout(`${gameId} finding ${target}: accepted by ${accepted.accepted.by}: ${accepted.accepted.reason}\n`)
    return null
  }
  await client.call("DELETE", findingPath(gameId, target), Schema.Unknown)
  if (json) return { gameId, fingerprint: target, accepted: null }
  io.stdout(`${gameId} finding ${target}: acceptance withdrawn\n`)
  return null
}
