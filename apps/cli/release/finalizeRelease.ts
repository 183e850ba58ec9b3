// Step 5: finalize — the service re-hashes what was stored and records the release, pending review. A version that
// exists already with these bytes was finalized by an earlier run whose answer was lost.
import { FinalizedRelease } from "../../../adapters/http/openapi/schemas.ts"
import { failureFrom } from "../client.ts"
import { type Declaration, type ReleaseRun, releasesPath } from "./context.ts"
import { releasedAlready } from "./uploadPack.ts"

export const finalizeRelease = async (run: ReleaseRun, gameId: string, declaration: Declaration): Promise<string> => {
  const reply = await run.client.attempt("POST", `${releasesPath(gameId)}/finalize`, FinalizedRelease, {
    body: declaration,
    rateLimit: { wait: run.waitOnRateLimit },
  })
  if (reply.ok) return reply.value.status
  if (reply.error.code === "version_exists") {
    const status = await releasedAlready(run, gameId, declaration)
    if (status !== null) return status
  }
  throw failureFrom(reply.error)
}
