// The reviewer's listing hashes every entry of a pack once (indexPack.ts); node:crypto does it natively. Kept in a file
// of its own, like nodeDecompressors.ts, so the pack readers stay free of runtime imports.
import { createHash } from "node:crypto"
import type { IncrementalSha256 } from "../../../ports/Sha256Hasher.ts"

export const nodeSha256 = (): IncrementalSha256 => {
  const hash = createHash("sha256")
  return { update: (chunk) => void hash.update(chunk), digestHex: () => hash.digest("hex") }
}
