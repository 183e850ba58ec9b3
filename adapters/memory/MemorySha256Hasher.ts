import { Layer } from "effect"
import { Sha256Hasher } from "../../ports/Sha256Hasher.ts"
import { createSha256 } from "./sha256.ts"

export const layerMemorySha256Hasher = Layer.succeed(Sha256Hasher, Sha256Hasher.of({ create: createSha256 }))
