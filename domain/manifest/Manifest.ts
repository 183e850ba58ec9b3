import { Schema } from "effect"
import { GameName } from "../game/GameName.ts"
import { Version } from "../release/Version.ts"
import { isEngineSdk, isManifestId, isPlayerCount, isValidEntryScenePath, MANIFEST_FIELD_RULES } from "./manifestRules.ts"

// The manifest.json a creator ships at the pack root and, on the multipart path, submits beside it,
// as an Effect schema. The rules live in manifestRules.ts (effect-free, used by the scanner);
// docs/scanner.md documents them.

export const ManifestId = Schema.String.pipe(Schema.check(Schema.makeFilter(isManifestId, { expected: MANIFEST_FIELD_RULES.id })))
export const EngineSdk = Schema.String.pipe(Schema.check(Schema.makeFilter(isEngineSdk, { expected: MANIFEST_FIELD_RULES.engine_sdk })))
export const EntryScene = Schema.String.pipe(Schema.check(Schema.makeFilter(isValidEntryScenePath, { expected: MANIFEST_FIELD_RULES.entry_scene })))
export const PlayerCount = Schema.Int.pipe(Schema.check(Schema.makeFilter((n: number) => isPlayerCount(n), { expected: MANIFEST_FIELD_RULES.min_players })))

/** Each required field on its own; unknown extra fields are allowed (and kept in the "current" comparison). */
export const MANIFEST_FIELD_SCHEMAS = {
  id: ManifestId,
  name: GameName,
  version: Version,
  engine_sdk: EngineSdk,
  entry_scene: EntryScene,
  min_players: PlayerCount,
  max_players: PlayerCount,
} as const

export const Manifest = Schema.Struct(MANIFEST_FIELD_SCHEMAS).pipe(
  Schema.check(
    Schema.makeFilter((m: { readonly min_players: number; readonly max_players: number }) => m.min_players <= m.max_players, {
      expected: "min_players at most max_players",
    }),
  ),
)
export type Manifest = typeof Manifest.Type
