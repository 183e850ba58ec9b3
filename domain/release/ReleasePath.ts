import { Schema } from "effect"
import { GameIdParam } from "../game/GamePath.ts"
import { Version } from "./Version.ts"

/** The path of routes under /api/…/games/{gameId}/releases/{version}: a game id and a version, both checked. */
export const ReleasePath = Schema.Struct({ gameId: GameIdParam, version: Version }).pipe(Schema.brand("ReleasePath"))
export type ReleasePath = typeof ReleasePath.Type
