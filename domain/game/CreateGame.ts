import { Effect, Schema } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { Ids } from "../../ports/Ids.ts"
import { type Actor, actorOf } from "../auth/Actor.ts"
import { type Principal, requireAdmin } from "../auth/Principal.ts"
import { withBudget } from "../budget/withBudget.ts"
import { SlugTaken } from "../errors.ts"
import { IdentifierText } from "../text/UserText.ts"
import type { Game } from "./Game.ts"
import { GameKind } from "./Game.ts"
import { GameName } from "./GameName.ts"
import { withDerivedSlug } from "./derivedSlug.ts"
import { Slug } from "./Slug.ts"

/** POST /api/games/engine's body; branded, so only a decoded body reaches `createGame`. */
export const CreateGameBody = Schema.Struct({
  name: GameName,
  slug: Schema.optionalKey(Slug),
}).pipe(Schema.brand("CreateGameBody"))
export type CreateGameBody = typeof CreateGameBody.Type

/** POST /api/admin/games's body. */
export const RegisterGameBody = Schema.Struct({
  name: GameName,
  slug: Schema.optionalKey(Slug),
  kind: GameKind,
  ownerId: IdentifierText,
}).pipe(Schema.brand("RegisterGameBody"))
export type RegisterGameBody = typeof RegisterGameBody.Type

/**
 * Inserts the game, deriving a collision-free slug when none was given (retrying when a concurrent insert won); the
 * timeline records it under the acting credential (`actor`), not the owner.
 */
const insertGame = Effect.fnUntraced(function*(fields: Omit<Game, "slug">, explicitSlug: string | undefined, actor: Actor) {
  const games = yield* GameStore
  if (explicitSlug !== undefined) {
    const game: Game = { ...fields, slug: explicitSlug }
    yield* games.insert(game, actor)
    return game
  }
  return yield* withDerivedSlug(fields.name, (slug) => {
    const game: Game = { ...fields, slug }
    return Effect.as(games.insert(game, actor), game)
  })
})

const newGameFields = Effect.fnUntraced(function*(name: string, kind: string, ownerId: string) {
  const now = yield* (yield* Clock).now
  const id = yield* (yield* Ids).next("gm")
  return { id, name, kind, ownerId, manifestId: null, createdAt: now, updatedAt: now } satisfies Omit<Game, "slug">
})

const ensureSlugFree = Effect.fnUntraced(function*(slug: string | undefined) {
  if (slug === undefined) return
  const existing = yield* (yield* GameStore).slugsStartingWith(slug)
  if (existing.includes(slug)) return yield* new SlugTaken({ slug })
})

/** POST /api/games/engine: creates an `engine` game owned by the caller (spec §4.1). */
export const createGame = Effect.fn("createGame")(function*(principal: Principal, input: CreateGameBody) {
  yield* ensureSlugFree(input.slug)
  return yield* withBudget(
    "create_game",
    principal.userId,
    Effect.flatMap(newGameFields(input.name, "engine", principal.userId), (fields) => insertGame(fields, input.slug, actorOf(principal))),
  )
})

/** POST /api/admin/games: an administrator registers a game of any kind for an owner (no budget). */
export const registerGame = Effect.fn("registerGame")(function*(principal: Principal, input: RegisterGameBody) {
  yield* requireAdmin(principal)
  yield* ensureSlugFree(input.slug)
  const fields = yield* newGameFields(input.name, input.kind, input.ownerId)
  return yield* insertGame(fields, input.slug, actorOf(principal))
})
