// Step 4: the bytes into storage, through a presigned URL. Skipped when the version is already released with these
// bytes; a 412 from storage means an earlier run stored them already.
import { ReleaseDetail, UploadUrl } from "../../../adapters/http/openapi/schemas.ts"
import { cliError } from "../failure.ts"
import { putFile } from "../files.ts"
import { progressBar } from "../progress.ts"
import { type Declaration, type ReleaseRun, releasesPath } from "./context.ts"

/** The release's status when this version already holds exactly these bytes (an earlier run finalized it). */
export const releasedAlready = async (run: ReleaseRun, gameId: string, declaration: Declaration): Promise<string | null> => {
  const reply = await run.client.attempt("GET", `${releasesPath(gameId)}/${encodeURIComponent(declaration.version)}`, ReleaseDetail)
  if (!reply.ok || reply.value.sha256 !== declaration.sha256) return null
  return "status" in reply.value ? reply.value.status : "approved"
}

export const uploadPack = async (run: ReleaseRun, gameId: string, declaration: Declaration): Promise<"uploaded" | "stored_already"> => {
  const presigned = await run.client.call("POST", `${releasesPath(gameId)}/upload-url`, UploadUrl, {
    body: declaration,
    rateLimit: { wait: run.waitOnRateLimit },
  })
  const bar = progressBar(run.io, "uploading", declaration.sizeBytes)
  const put = await putFile(presigned.uploadUrl, presigned.headers, run.path, declaration.sizeBytes, bar.update).catch((cause: Error) => {
    throw cliError("network", `the upload was cut off (${cause.message}); run the same command again to resume`)
  })
  bar.finish(declaration.sizeBytes)
  if (put.status === 412) {
    run.io.stderr("the object is already stored (412): going on to finalize\n")
    return "stored_already"
  }
  if (put.status !== 200) throw cliError("upload_failed", `storage answered ${put.status}: ${put.body.slice(0, 300)}`)
  return "uploaded"
}
