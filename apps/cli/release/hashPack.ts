// Step 2: the SHA-256 and size the release is declared with.
import { hashFile } from "../files.ts"
import { progressBar } from "../progress.ts"
import type { Declaration, ReleaseRun } from "./context.ts"

export const hashPack = async (run: ReleaseRun, sizeBytes: number): Promise<Declaration> => {
  const bar = progressBar(run.io, "hashing  ", sizeBytes)
  const hashed = await hashFile(run.path, bar.update)
  bar.finish(hashed.sizeBytes)
  return { version: run.version, sha256: hashed.sha256, sizeBytes: hashed.sizeBytes }
}
