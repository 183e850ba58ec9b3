import { randomBytes } from "node:crypto"
import { Effect, Layer } from "effect"
import { SecretRandom } from "../../ports/SecretRandom.ts"

/** The operating system's CSPRNG through Node's crypto module. */
export const layerNodeSecretRandom = Layer.succeed(SecretRandom, SecretRandom.of({
  bytes: (length) => Effect.sync(() => new Uint8Array(randomBytes(length))),
}))
