import { Context } from "effect"

export interface IncrementalSha256 {
  update(chunk: Uint8Array): void
  /** Lowercase hex digest; the hash cannot be updated afterwards. */
  digestHex(): string
}

/** Streaming SHA-256, so bytes can be hashed while they flow to storage. */
export class Sha256Hasher extends Context.Service<Sha256Hasher, {
  create(): IncrementalSha256
}>()("pckgate/ports/Sha256Hasher") {}
