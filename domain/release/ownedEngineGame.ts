import { Effect, Option } from "effect"
import { GameStore } from "../../ports/GameStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { owns, type Principal } from "../auth/Principal.ts"
import { GameNotFoundOrForbidden, NotAnEngineGame, VersionExists } from "../errors.ts"
import { GAME_ID_PATTERN } from "../game/Game.ts"

/** The precedence checks shared by upload-url and finalize: 404 ownership → 409 not_an_engine_game → 409 version_exists. */
export const ownedEngineGameWithFreeVersion = Effect.fnUntraced(function*(principal: Principal, gameId: string, version: string) {
  if (!GAME_ID_PATTERN.test(gameId)) return yield* new GameNotFoundOrForbidden({ gameId })
  const game = Option.getOrNull(yield* GameStore.use((games) => games.get(gameId)))
  if (game === null || !owns(principal, game.ownerId)) return yield* new GameNotFoundOrForbidden({ gameId })
  if (game.kind !== "engine") return yield* new NotAnEngineGame({ gameId, kind: game.kind })
  const existing = yield* ReleaseStore.use((releases) => releases.get(gameId, version))
  if (Option.isSome(existing)) return yield* new VersionExists({ gameId, version })
  return game
})
