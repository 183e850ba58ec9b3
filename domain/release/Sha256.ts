import { Schema } from "effect"

/** SHA-256 digest as 64 lowercase hex characters, no "sha256:" prefix. */
export const Sha256 = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[0-9a-f]{64}$/u, { expected: "64 lowercase hex characters (no 'sha256:' prefix)" })),
  Schema.brand("Sha256"),
)
export type Sha256 = typeof Sha256.Type
