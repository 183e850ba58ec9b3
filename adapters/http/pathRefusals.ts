// How routes about a game answer a path that cannot name one of ours (routeInput.ts's `paramsNotFound`): like a game
// the caller may not act on (api-conventions.md, "404, never 403"), so a made-up id and an unknown one read the same.
import { GameNotFoundOrForbidden, NotFound } from "../../domain/errors.ts"

type Path = Readonly<Record<string, string>>

/** The game id the caller sent, named in the answer ("" when its percent-encoding is malformed: nothing is echoed). */
export const notYourGame = (path: Path) => new GameNotFoundOrForbidden({ gameId: path["gameId"] ?? "" })

/** A release path (`…/games/{gameId}/releases/{version}`): the game first, then an unknown version is 404 not_found. */
export const notYourGameOrRelease = (path: Path, field: string) => field === "gameId" ? notYourGame(path) : new NotFound({ what: "release" })
