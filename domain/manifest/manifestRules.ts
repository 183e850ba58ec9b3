// The manifest's field rules as plain predicates, without effect: the scanner (and the standalone
// `check` process, which must stay under 100 MB RSS; loading effect alone costs ~50 MB) validates
// with these, and the `Manifest` schema is built from the same predicates.

import { describeForbidden, forbiddenCharacters, hasForbiddenCharacters, isNameText, NAME_MAX_CODE_POINTS } from "../text/textRules.ts"

export const MANIFEST_FIELDS = ["id", "name", "version", "engine_sdk", "entry_scene", "min_players", "max_players"] as const
export type ManifestField = (typeof MANIFEST_FIELDS)[number]

/** A decoded manifest as plain data (the schema's type adds the `Version` brand). */
export interface ManifestData {
  readonly id: string
  readonly name: string
  readonly version: string
  readonly engine_sdk: string
  readonly entry_scene: string
  readonly min_players: number
  readonly max_players: number
}

/**
 * Stable game identifier: 1-64 of [A-Za-z0-9._-], first character alphanumeric, no "..". ASCII letters, digits and
 * three marks only, so it is stricter than the identifier rule of domain/text/textRules.ts: no control or
 * bidirectional character, no lone surrogate gets through.
 */
export const MANIFEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
export const isManifestId = (s: string): boolean => MANIFEST_ID_PATTERN.test(s) && !s.includes("..")

/**
 * The release version rule of domain/release/Version.ts (`isValidVersion`), restated here so this
 * module needs no effect import; test/scanner/manifest.test.ts proves both agree on every input.
 */
export const isReleaseVersion = (s: string): boolean => /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/.test(s) && !s.includes("..")

/**
 * The game name rule of domain/game/GameName.ts (one line, 1-80 code points in NFC, not only whitespace, no control or
 * bidirectional character, no lone surrogate); the same functions, and proven equal by test.
 */
export const isGameNameText = isNameText

/** Version of the platform SDK the game was built against, e.g. "1.4.0": 1-32 of [A-Za-z0-9.+_-], first alphanumeric. */
export const ENGINE_SDK_PATTERN = /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,31}$/
export const isEngineSdk = (s: string): boolean => ENGINE_SDK_PATTERN.test(s)

/**
 * A scene inside the pack: `res://` optional, `.tscn` or `.scn`, no `..`/`.`/empty segment, no backslash, no control or
 * bidirectional character (nor a lone surrogate), at most 256 characters.
 */
export const isValidEntryScenePath = (s: string): boolean => {
  const bare = s.startsWith("res://") ? s.slice("res://".length) : s
  return (
    s.length <= 256 &&
    bare.length > 0 &&
    !bare.startsWith("/") &&
    !bare.includes("\\") &&
    !hasForbiddenCharacters(s, "single") &&
    !bare.split("/").some((part) => part === ".." || part === "." || part === "") &&
    /\.(tscn|scn)$/.test(bare)
  )
}

export const MAX_PLAYERS_LIMIT = 256
export const isPlayerCount = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= MAX_PLAYERS_LIMIT

const isString = (u: unknown): u is string => typeof u === "string"

/** Each field's rule on its own (the cross-field rule min ≤ max is checked on the whole manifest). */
export const FIELD_IS_VALID: Readonly<Record<ManifestField, (value: unknown) => boolean>> = {
  id: (v) => isString(v) && isManifestId(v),
  name: (v) => isString(v) && isGameNameText(v),
  version: (v) => isString(v) && isReleaseVersion(v),
  engine_sdk: (v) => isString(v) && isEngineSdk(v),
  entry_scene: (v) => isString(v) && isValidEntryScenePath(v),
  min_players: isPlayerCount,
  max_players: isPlayerCount,
}

/** What each field must be, in words: for the multipart `detail` and for scanner findings. */
export const MANIFEST_FIELD_RULES: Readonly<Record<ManifestField, string>> = {
  id: "a string of 1-64 characters [A-Za-z0-9._-], starting with a letter or digit, without '..', that stays the same across updates",
  name: `the game's name, one line of 1-${NAME_MAX_CODE_POINTS} characters that is not only whitespace, without control characters, bidirectional controls (U+202A-U+202E, U+2066-U+2069) or lone surrogates`,
  version: "a string of 1-32 characters [A-Za-z0-9._-], starting with a letter or digit, without '..' (the release version)",
  engine_sdk: "the platform SDK version, a string of 1-32 characters [A-Za-z0-9.+_-] starting with a letter or digit",
  entry_scene: "the path of a .tscn or .scn scene inside the pack, e.g. res://game/main.tscn, without control or bidirectional characters",
  min_players: `an integer from 1 to ${MAX_PLAYERS_LIMIT}`,
  max_players: `an integer from 1 to ${MAX_PLAYERS_LIMIT}, at least min_players`,
}

/**
 * "name: contains U+202E (a bidirectional control); remove it" for each text field holding a character no field may
 * contain, in field order: the multipart `detail` names the code point, not only the field.
 */
export const manifestCharacterProblems = (input: unknown): ReadonlyArray<string> => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return []
  const record = input as Readonly<Record<string, unknown>>
  return MANIFEST_FIELDS.flatMap((field) => {
    const value = Object.hasOwn(record, field) ? record[field] : undefined
    return isString(value) ? forbiddenCharacters(value, "single").map((c) => `${field}: ${describeForbidden(c)}`) : []
  })
}
