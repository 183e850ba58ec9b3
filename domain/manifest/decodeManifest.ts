import type { Manifest } from "./Manifest.ts"
import { FIELD_IS_VALID, MANIFEST_FIELDS, type ManifestField } from "./manifestRules.ts"

export type ManifestDecoding =
  | { readonly _tag: "Valid"; readonly manifest: Manifest }
  | { readonly _tag: "Invalid"; readonly fields: ReadonlyArray<ManifestField> }

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Decodes a parsed manifest.json. On failure it names every offending field, in the documented
 * field order, so the multipart endpoint can answer `detail` with them and the scanner can point
 * at each one. A value that is not a JSON object fails on every field. Effect-free (see
 * manifestRules.ts); it accepts exactly what the `Manifest` schema accepts (proven by test).
 */
export const decodeManifest = (input: unknown): ManifestDecoding => {
  if (!isRecord(input)) return { _tag: "Invalid", fields: MANIFEST_FIELDS }
  const fields = MANIFEST_FIELDS.filter((field) => !FIELD_IS_VALID[field](Object.hasOwn(input, field) ? input[field] : undefined))
  if (fields.length > 0) return { _tag: "Invalid", fields }
  // The name is kept in NFC, as the Manifest schema (GameName) decodes it: what the multipart path stores.
  const manifest = { ...Object.fromEntries(MANIFEST_FIELDS.map((f) => [f, input[f]])), name: (input["name"] as string).normalize("NFC") } as unknown as Manifest
  if (manifest.min_players > manifest.max_players) return { _tag: "Invalid", fields: ["max_players"] }
  return { _tag: "Valid", manifest }
}
