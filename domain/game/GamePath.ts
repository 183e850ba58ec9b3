import { Schema } from "effect"
import { GameId } from "./Game.ts"

/** A game id taken from a request path: decoded and checked once, branded so use cases can tell. */
export const GameIdParam = GameId.pipe(Schema.brand("GameId"))
export type GameIdParam = typeof GameIdParam.Type

/** The path of routes under /api/games/{gameId}. */
export const GamePath = Schema.Struct({ gameId: GameIdParam })
export type GamePath = typeof GamePath.Type
