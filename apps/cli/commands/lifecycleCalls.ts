// The calls behind `withdraw`, `activate` and `rollback`, and how their answers are printed.
import { LifecycleOutcome } from "../../../adapters/http/openapi/schemas.ts"
import type { Client } from "../client.ts"
import type { CliIo } from "../io.ts"

export const releasePath = (gameId: string, version: string, action: string) =>
  `/api/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}/${action}`

export const printOutcome = (io: CliIo, gameId: string, outcome: typeof LifecycleOutcome.Type) => {
  for (const r of outcome.releases) io.stdout(`${gameId} ${r.version}: ${r.status}${r.takedownReason ? ` — ${r.takedownReason}` : ""}\n`)
  io.stdout(`game ${outcome.gameStatus}, active version ${outcome.activeVersion ?? "none"}\n`)
}

export const activate = (client: Client, gameId: string, version: string, reason: string | undefined) =>
  client.call("POST", releasePath(gameId, version, "activate"), LifecycleOutcome, { body: reason === undefined ? {} : { reason } })
