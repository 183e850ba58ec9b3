import { Effect, Option } from "effect"
import { CiIdentity } from "../../ports/CiIdentity.ts"
import { Clock } from "../../ports/Clock.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { Ids } from "../../ports/Ids.ts"
import { PublishTokens } from "../../ports/PublishTokens.ts"
import { TrustedPublisherStore } from "../../ports/TrustedPublisherStore.ts"
import type { Principal } from "../auth/Principal.ts"
import { AmbiguousPublisher, GameNotFoundOrForbidden, InvalidRequest, NotFound, SignInRequired, TrustedPublisherLimitReached } from "../errors.ts"
import { actorOf } from "./Credential.ts"
import { credentialRecord, recordCredentialEvent } from "./credentialEvents.ts"
import { type CiClaims, idClaim, idsOf, isIdClaim, matchPublishers, mismatchedClaim, repositoryOf } from "./publisherMatch.ts"
import {
  type AddTrustedPublisherBody,
  type ExchangeBody,
  MAX_PUBLISHERS_PER_GAME,
  normalizedWorkflow,
  platformIdText,
  type TrustedPublisher,
} from "./TrustedPublisher.ts"

/** The game, when the caller is a person who owns it or an administrator; 404 for everyone else (keys and tokens too). */
const managedGame = Effect.fnUntraced(function*(principal: Principal, gameId: string) {
  const game = yield* GameStore.use((store) => store.get(gameId))
  if (principal.credential !== undefined || Option.isNone(game) || (!principal.isAdmin && game.value.ownerId !== principal.userId)) {
    return yield* new GameNotFoundOrForbidden({ gameId })
  }
  return game.value
})

/** POST /api/games/{gameId}/trusted-publishers. */
export const addTrustedPublisher = Effect.fn("addTrustedPublisher")(function*(principal: Principal, gameId: string, input: AddTrustedPublisherBody) {
  const game = yield* managedGame(principal, gameId)
  const publisher: TrustedPublisher = {
    id: yield* (yield* Ids).next("tp"),
    gameId: game.id,
    provider: input.provider,
    repository: input.repository,
    workflow: normalizedWorkflow(input.provider, input.workflow),
    environment: input.environment ?? null,
    ref: input.ref ?? null,
    repositoryId: platformIdText(input.repositoryId),
    repositoryOwnerId: platformIdText(input.repositoryOwnerId),
    createdBy: principal.userId,
    createdAt: yield* (yield* Clock).now,
  }
  const event = { type: "trusted_publisher.added", ownerId: game.ownerId, actor: actorOf(principal), gameId: game.id, publisherId: publisher.id } as const
  // The store counts and inserts atomically: concurrent additions cannot pass the limit together.
  const added = yield* TrustedPublisherStore.use((store) => store.add(publisher, MAX_PUBLISHERS_PER_GAME, credentialRecord(event, [game.id], publisher.createdAt)))
  if (!added) return yield* new TrustedPublisherLimitReached({ limit: MAX_PUBLISHERS_PER_GAME })
  yield* recordCredentialEvent(event)
  return publisher
})

/** GET /api/games/{gameId}/trusted-publishers. */
export const listTrustedPublishers = Effect.fn("listTrustedPublishers")(function*(principal: Principal, gameId: string) {
  const game = yield* managedGame(principal, gameId)
  return yield* TrustedPublisherStore.use((store) => store.listByGame(game.id))
})

/** DELETE /api/games/{gameId}/trusted-publishers/{id}. */
export const removeTrustedPublisher = Effect.fn("removeTrustedPublisher")(function*(principal: Principal, gameId: string, id: string) {
  const game = yield* managedGame(principal, gameId)
  const event = { type: "trusted_publisher.removed", ownerId: game.ownerId, actor: actorOf(principal), gameId: game.id, publisherId: id } as const
  const record = credentialRecord(event, [game.id], yield* (yield* Clock).now)
  const removed = yield* TrustedPublisherStore.use((store) => store.remove(game.id, id, record))
  if (!removed) return yield* new NotFound({ what: "trusted publisher" })
  yield* recordCredentialEvent(event)
})

/** 401 for an ID token that matches no publisher: the claim that stopped the closest one, never the token. */
const noMatch = (ci: CiClaims, claim: string, candidates: number, gameId: string | undefined) => {
  const repository = repositoryOf(ci)
  const where = gameId === undefined ? "any game" : `game '${gameId}'`
  if (candidates === 0) {
    return new SignInRequired({
      reason: `No trusted publisher of ${where} is registered for the ID token's '${repository.claim}' claim ('${repository.value}' on ${ci.provider})`,
    })
  }
  if (isIdClaim(claim)) return idRefusal(ci, claim)
  return new SignInRequired({ reason: `The ID token's '${claim}' claim matches no trusted publisher of ${where} registered for '${repository.value}'` })
}

/** 401 for a token whose repository or owner id is missing, or differs from the one the publisher is pinned to. */
const idRefusal = (ci: CiClaims, claim: string) => {
  if (idClaim(ci, claim) === null) return new SignInRequired({ reason: `The ID token has no '${claim}' claim that is a numeric id` })
  const what = ci.provider === "github" ? "repository or its owner account" : "project or its namespace"
  return new SignInRequired({
    reason: `The ID token's '${claim}' claim differs from the one the trusted publisher of '${repositoryOf(ci).value}' is pinned to: ` +
      `the ${what} was deleted and re-created, or its name now belongs to someone else. If it was legitimately re-created, ` +
      "the game's owner must remove the trusted publisher and register it again",
  })
}

/**
 * The publisher, pinned to the token's ids if it was not yet: set only while unset, so of two first exchanges with
 * different ids exactly one pins them, and the other is refused as any later mismatch is.
 */
const pinnedOnFirstUse = Effect.fnUntraced(function*(ci: CiClaims, publisher: TrustedPublisher) {
  if (publisher.repositoryId !== null && publisher.repositoryOwnerId !== null) return publisher
  const ids = idsOf(ci)
  // Matching required both ids in the token.
  const pinned = yield* TrustedPublisherStore.use((store) => store.pinIds(publisher.id, { repositoryId: ids.repositoryId!, repositoryOwnerId: ids.repositoryOwnerId! }))
  if (Option.isNone(pinned)) return yield* new SignInRequired({ reason: `Trusted publisher ${publisher.id} was removed` })
  const claim = mismatchedClaim(ci, pinned.value)
  if (claim !== null) return yield* idRefusal(ci, claim)
  yield* Effect.logInfo("trusted publisher pinned", { publisherId: publisher.id, ...ids })
  return pinned.value
})

/**
 * POST /api/auth/trusted-publishing/token: a CI provider's ID token for a 15-minute token that releases one game as
 * its owner. 401 names the claim that did not match (never the token); 409 when several games match and none was named.
 */
export const exchangePublishingToken = Effect.fn("exchangePublishingToken")(function*(input: ExchangeBody) {
  const ci = yield* CiIdentity.use((identity) => identity.verify(input.token))
  const repository = repositoryOf(ci)
  if (repository.value === null) return yield* new SignInRequired({ reason: `The ID token has no '${repository.claim}' claim` })
  const candidates = (yield* TrustedPublisherStore.use((store) => store.findByRepository(ci.provider, repository.value!)))
    .filter((publisher) => input.gameId === undefined || publisher.gameId === input.gameId)
  const match = matchPublishers(ci, candidates)
  if (match._tag === "NoMatch") return yield* noMatch(ci, match.claim, candidates.length, input.gameId)
  const gameIds = [...new Set(match.publishers.map((publisher) => publisher.gameId))]
  if (gameIds.length > 1) return yield* new AmbiguousPublisher({ gameIds })
  const publisher = yield* pinnedOnFirstUse(ci, match.publishers[0]!)
  const game = yield* GameStore.use((store) => store.get(publisher.gameId))
  if (Option.isNone(game)) return yield* new SignInRequired({ reason: `The game of trusted publisher ${publisher.id} no longer exists` })
  const now = yield* (yield* Clock).now
  const minted = yield* PublishTokens.use((tokens) => tokens.issue({ ownerId: game.value.ownerId, gameId: game.value.id, publisherId: publisher.id }, now))
  return { token: minted.token, expiresAt: minted.expiresAt, gameId: game.value.id, scopes: ["release"] as const }
})
