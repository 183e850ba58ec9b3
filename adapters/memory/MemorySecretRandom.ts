import { Effect, Layer } from "effect"
import { SecretRandom } from "../../ports/SecretRandom.ts"

/** Web Crypto's generator: available on Node, Deno and in browsers, so the memory layers stay portable. */
export const layerWebCryptoSecretRandom = Layer.succeed(SecretRandom, SecretRandom.of({
  bytes: (length) => Effect.sync(() => crypto.getRandomValues(new Uint8Array(length))),
}))
