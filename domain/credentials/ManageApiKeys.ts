import { Effect, Option } from "effect"
import { ApiKeyStore } from "../../ports/ApiKeyStore.ts"
import { Clock } from "../../ports/Clock.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { Ids } from "../../ports/Ids.ts"
import { SecretRandom } from "../../ports/SecretRandom.ts"
import { Sha256Hasher } from "../../ports/Sha256Hasher.ts"
import type { Principal } from "../auth/Principal.ts"
import { ApiKeyLimitReached, GameNotFoundOrForbidden, InvalidRequest, NotFound, SignInRequired } from "../errors.ts"
import { API_KEY_DEFAULT_DAYS, API_KEY_LAST_USED_RESOLUTION_SECONDS, API_KEY_MAX_PER_ACCOUNT, type ApiKey, apiKeyIsLive, type CreateApiKeyBody } from "./ApiKey.ts"
import { API_KEY_RANDOM_LENGTH, apiKeyDisplayPrefix, apiKeyFor, base62FromBytes, looksLikeApiKey } from "./apiKeyFormat.ts"
import { actorOf } from "./Credential.ts"
import { credentialRecord, recordCredentialEvent } from "./credentialEvents.ts"

const DAY_MS = 86_400_000

/** Keys are managed by the person only: never by another key or a publisher's token. */
const personOnly = (principal: Principal) =>
  principal.credential === undefined ? Effect.void : Effect.fail(new NotFound({ what: "route" }))

/** SHA-256 is enough for keys of ~190 random bits: nobody can search that space, so no slow hash is needed. */
export const apiKeyHash = Effect.fnUntraced(function*(key: string) {
  const hasher = (yield* Sha256Hasher).create()
  hasher.update(new TextEncoder().encode(key))
  return hasher.digestHex()
})

const randomPart = Effect.fnUntraced(function*() {
  const random = yield* SecretRandom
  for (;;) {
    const text = base62FromBytes(yield* random.bytes(API_KEY_RANDOM_LENGTH * 2), API_KEY_RANDOM_LENGTH)
    if (text !== null) return text
  }
})

const ensureOwnsGames = Effect.fnUntraced(function*(principal: Principal, games: ReadonlyArray<string>) {
  const store = yield* GameStore
  for (const gameId of new Set(games)) {
    const game = yield* store.get(gameId)
    if (Option.isNone(game) || game.value.ownerId !== principal.userId) return yield* new GameNotFoundOrForbidden({ gameId })
  }
})

/** POST /api/me/api-keys: a new key, shown once; only its hash is kept. */
export const createApiKey = Effect.fn("createApiKey")(function*(principal: Principal, input: CreateApiKeyBody) {
  yield* personOnly(principal)
  if (input.games !== "all") yield* ensureOwnsGames(principal, input.games)
  const store = yield* ApiKeyStore
  const now = yield* (yield* Clock).now
  const key = apiKeyFor(yield* randomPart())
  const apiKey: ApiKey = {
    id: yield* (yield* Ids).next("key"),
    ownerId: principal.userId,
    name: input.name,
    prefix: apiKeyDisplayPrefix(key),
    keyHash: yield* apiKeyHash(key),
    games: input.games === "all" ? "all" : [...new Set(input.games)],
    scopes: [...new Set(input.scopes)],
    createdAt: now,
    expiresAt: new Date(now.getTime() + (input.expiresInDays ?? API_KEY_DEFAULT_DAYS) * DAY_MS),
    revokedAt: null,
    lastUsedAt: null,
  }
  const event = { type: "api_key.created", ownerId: principal.userId, actor: actorOf(principal), apiKeyId: apiKey.id } as const
  // The store counts the live keys and inserts atomically: concurrent creations cannot pass the limit together.
  const created = yield* store.create(apiKey, API_KEY_MAX_PER_ACCOUNT, credentialRecord(event, yield* gamesOfKey(principal.userId, apiKey.games), now))
  if (!created) return yield* new ApiKeyLimitReached({ limit: API_KEY_MAX_PER_ACCOUNT })
  yield* recordCredentialEvent(event)
  return { apiKey, key }
})

/** The games a key's timeline events go to: those it names, or every game the owner has now (credentialEvents.ts). */
const gamesOfKey = (ownerId: string, games: ApiKey["games"]) =>
  games === "all" ? Effect.map(GameStore.use((store) => store.listByOwner(ownerId)), (owned) => owned.map((g) => g.id)) : Effect.succeed(games)

/** GET /api/me/api-keys: the caller's keys that are not revoked (expired ones included, so they can be replaced). */
export const listApiKeys = Effect.fn("listApiKeys")(function*(principal: Principal) {
  yield* personOnly(principal)
  const keys = yield* ApiKeyStore.use((store) => store.listByOwner(principal.userId))
  return keys.filter((key) => key.revokedAt === null)
})

/** DELETE /api/me/api-keys/{id}: revoked for every instance once stored (keys are read on every use). */
export const revokeApiKey = Effect.fn("revokeApiKey")(function*(principal: Principal, id: string) {
  yield* personOnly(principal)
  const now = yield* (yield* Clock).now
  const store = yield* ApiKeyStore
  const key = (yield* store.listByOwner(principal.userId)).find((k) => k.id === id)
  const event = { type: "api_key.revoked", ownerId: principal.userId, actor: actorOf(principal), apiKeyId: id } as const
  const record = credentialRecord(event, key === undefined ? [] : yield* gamesOfKey(principal.userId, key.games), now)
  const revoked = key !== undefined && (yield* store.revoke(principal.userId, id, now, record))
  if (!revoked) return yield* new NotFound({ what: "API key" })
  yield* recordCredentialEvent(event)
})

/** Who a presented key acts for, or 401: unknown, revoked and expired keys alike ask the caller to sign in. */
export const apiKeyPrincipal = Effect.fn("apiKeyPrincipal")(function*(key: string) {
  if (!looksLikeApiKey(key)) return yield* new SignInRequired({ reason: "This is not an API key this service issued (its checksum does not match)" })
  const store = yield* ApiKeyStore
  const found = yield* store.findByHash(yield* apiKeyHash(key))
  if (Option.isNone(found)) return yield* new SignInRequired({ reason: "Unknown API key" })
  const apiKey = found.value
  const now = yield* (yield* Clock).now
  if (apiKey.revokedAt !== null) return yield* new SignInRequired({ reason: `API key ${apiKey.prefix}… was revoked; create a new one` })
  if (!apiKeyIsLive(apiKey, now)) return yield* new SignInRequired({ reason: `API key ${apiKey.prefix}… expired; create a new one` })
  // lastUsedAt is a hint: failing to write it never refuses a valid key.
  yield* store.touch(apiKey.id, now, new Date(now.getTime() - API_KEY_LAST_USED_RESOLUTION_SECONDS * 1000)).pipe(Effect.ignore)
  const principal: Principal = {
    userId: apiKey.ownerId,
    isAdmin: false,
    credential: { kind: "api_key", id: apiKey.id, scopes: apiKey.scopes, games: apiKey.games },
  }
  return principal
})
