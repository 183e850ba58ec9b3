// Stable rule ids. They are part of the API (CLI output, the multipart `violations`, docs/scanner.md
// anchors): rename one only with a migration note.

export const RULE = {
  // The container
  notAPack: "pack-not-godot",
  truncated: "pack-truncated",
  unsupportedFormat: "pack-unsupported-format",
  unknownFlags: "pack-unknown-flags",
  embeddedInExecutable: "pack-embedded-in-executable",
  directoryTooLarge: "pack-directory-too-large",
  hostilePath: "pack-hostile-path",
  duplicatePath: "pack-duplicate-path",
  entryOutOfBounds: "pack-entry-out-of-bounds",
  entryOverlapsDirectory: "pack-entry-overlaps-directory",
  encrypted: "pack-encrypted",
  patchContent: "pack-patch-content",
  checksumMismatch: "pack-checksum-mismatch",
  size: "pack-size",
  // Content that cannot be reviewed
  unreadableResource: "resource-unreadable",
  // Check 1: manifest
  manifestMissing: "manifest-missing",
  manifestInvalidJson: "manifest-invalid-json",
  manifestInvalidField: "manifest-invalid-field",
  manifestNotCurrent: "manifest-not-current",
  // Check 2: entry scene
  entrySceneMissing: "entry-scene-missing",
  entrySceneNotEngineGame: "entry-scene-not-engine-game",
  entrySceneUnverifiable: "entry-scene-unverifiable",
  // Checks 3-6
  reservedPath: "reserved-path",
  bannedApi: "banned-api",
  nativeCode: "native-code",
  nonGdscript: "non-gdscript",
  compiledScript: "compiled-script",
} as const

export type RuleId = (typeof RULE)[keyof typeof RULE]

export const ALL_RULES: ReadonlyArray<RuleId> = Object.values(RULE)
