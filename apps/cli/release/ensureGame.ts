// Step 3: the game to release into — given by id, or found by name among the caller's games (every page of them, so a
// game past the first page is not created twice) and created only when there is none.
import { CreatedGame, MyGames } from "../../../adapters/http/openapi/schemas.ts"
import { pagesOf } from "../pages.ts"
import type { ReleaseRun } from "./context.ts"

export type GameTarget = { readonly gameId: string } | { readonly name: string }

export const findGameByName = async (run: Pick<ReleaseRun, "client">, name: string): Promise<string | null> => {
  for await (const page of pagesOf(run.client, "/api/me/games", MyGames)) {
    const found = page.games.find((g) => g.name === name && g.kind === "engine")
    if (found !== undefined) return found.gameId
  }
  return null
}

export const ensureGame = async (run: ReleaseRun, target: GameTarget): Promise<string> => {
  if ("gameId" in target) return target.gameId
  const existing = await findGameByName(run, target.name)
  if (existing !== null) return existing
  run.io.stderr(`creating game '${target.name}'\n`)
  const created = await run.client.call("POST", "/api/games/engine", CreatedGame, { body: { name: target.name }, rateLimit: { wait: run.waitOnRateLimit } })
  return created.gameId
}
