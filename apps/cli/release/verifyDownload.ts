// Step 6: download what the service will ship and compare its SHA-256 with the file's.
import { createHash } from "node:crypto"
import { DownloadUrl } from "../../../adapters/http/openapi/schemas.ts"
import { cliError } from "../failure.ts"
import { type Declaration, type ReleaseRun, releasesPath } from "./context.ts"

const cutOff = (cause: unknown) =>
  cliError("network", `the verifying download was cut off (${cause instanceof Error ? cause.message : String(cause)}); run the same command again`)

export const verifyDownload = async (run: ReleaseRun, gameId: string, declaration: Declaration): Promise<true> => {
  const link = await run.client.call("GET", `${releasesPath(gameId)}/${encodeURIComponent(declaration.version)}/download-url`, DownloadUrl)
  const response = await fetch(link.url).catch((cause: unknown) => {
    throw cutOff(cause)
  })
  if (!response.ok || response.body === null) throw cliError("download_failed", `storage answered ${response.status}`)
  const hash = createHash("sha256")
  try {
    for await (const chunk of response.body) hash.update(chunk)
  } catch (cause) {
    throw cutOff(cause)
  }
  const shipped = hash.digest("hex")
  if (shipped !== declaration.sha256 || link.sha256 !== declaration.sha256) {
    throw cliError("checksum_mismatch", `the service would ship ${shipped} (key says ${link.sha256}), not your ${declaration.sha256}`)
  }
  return true
}
