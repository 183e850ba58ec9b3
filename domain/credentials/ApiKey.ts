import { Schema } from "effect"
import { GAME_ID_PATTERN } from "../game/Game.ts"
import { NameText } from "../text/UserText.ts"
import { CREDENTIAL_SCOPES, type CredentialGames, type CredentialScope } from "./Credential.ts"

/** A stored API key: never the key itself, only its SHA-256 (see docs in README, "API keys"). */
export interface ApiKey {
  readonly id: string
  readonly ownerId: string
  readonly name: string
  /** `pckg_` and the first 8 random characters, to tell keys apart in lists. */
  readonly prefix: string
  /** Lowercase hex SHA-256 of the whole key. */
  readonly keyHash: string
  readonly games: CredentialGames
  readonly scopes: ReadonlyArray<CredentialScope>
  readonly createdAt: Date
  readonly expiresAt: Date | null
  readonly revokedAt: Date | null
  readonly lastUsedAt: Date | null
}

export const API_KEY_DEFAULT_DAYS = 90
export const API_KEY_MAX_DAYS = 366
export const API_KEY_MAX_GAMES = 100
/** Live keys one account may hold; revoke one to make room. */
export const API_KEY_MAX_PER_ACCOUNT = 50
/** lastUsedAt is written at most this often per key, so a busy key does not write on every request. */
export const API_KEY_LAST_USED_RESOLUTION_SECONDS = 60

const GameIdText = Schema.String.pipe(Schema.check(Schema.isPattern(GAME_ID_PATTERN, { message: "a game id returned by the service (gm_…)" })))

export const CreateApiKeyBody = Schema.Struct({
  name: NameText,
  games: Schema.Union([
    Schema.Literal("all"),
    Schema.Array(GameIdText).pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(API_KEY_MAX_GAMES))),
  ]),
  scopes: Schema.Array(Schema.Literals(CREDENTIAL_SCOPES)).pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(3))),
  expiresInDays: Schema.optionalKey(Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: API_KEY_MAX_DAYS })))),
}).pipe(Schema.brand("CreateApiKeyBody"))
export type CreateApiKeyBody = typeof CreateApiKeyBody.Type

/** The path of DELETE /api/me/api-keys/{keyId}: any id the service may have issued (an unknown one is 404). */
export const ApiKeyPath = Schema.Struct({ keyId: Schema.NonEmptyString }).pipe(Schema.brand("ApiKeyPath"))
export type ApiKeyPath = typeof ApiKeyPath.Type

/** True while the key may be used. */
export const apiKeyIsLive = (key: ApiKey, now: Date): boolean =>
  key.revokedAt === null && (key.expiresAt === null || now.getTime() < key.expiresAt.getTime())
