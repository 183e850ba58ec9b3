import { createHash } from "node:crypto"
import { Layer } from "effect"
import { Sha256Hasher } from "../../ports/Sha256Hasher.ts"

/** The runtime's native SHA-256 (SHA-NI where the CPU has it). */
export const layerNodeSha256Hasher = Layer.succeed(Sha256Hasher, Sha256Hasher.of({
  create: () => {
    const hash = createHash("sha256")
    return { update: (chunk) => void hash.update(chunk), digestHex: () => hash.digest("hex") }
  },
}))
