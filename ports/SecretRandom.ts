import { Context, type Effect } from "effect"

/** Unpredictable bytes from a cryptographically secure source (API keys). */
export class SecretRandom extends Context.Service<SecretRandom, {
  bytes(length: number): Effect.Effect<Uint8Array>
}>()("pckgate/ports/SecretRandom") {}
