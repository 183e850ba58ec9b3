import { Effect, Option } from "effect"
import { GameStore } from "../../ports/GameStore.ts"
import { Timeline } from "../../ports/Timeline.ts"
import { type Principal, seesAllReleases } from "../auth/Principal.ts"
import { GameNotFoundOrForbidden, InvalidRequest } from "../errors.ts"
import { GAME_ID_PATTERN } from "../game/Game.ts"

const DEFAULT_LIMIT = 50
const MAX_LIMIT = 100
const CURSOR = /^e([1-9][0-9]{0,15})$/

/** Opaque to clients: the last event's sequence, so pages follow the keyset order and never skip or repeat. */
const encodeCursor = (seq: number) => btoa(`e${seq}`).replace(/=+$/, "")

const decodeCursor = (cursor: string | null): number | null => {
  if (cursor === null) return 0
  try {
    const match = CURSOR.exec(atob(cursor))
    return match === null ? null : Number(match[1])
  } catch {
    return null
  }
}

const decodeLimit = (limit: string | null): number | null => {
  if (limit === null) return DEFAULT_LIMIT
  if (!/^[0-9]{1,3}$/.test(limit)) return null
  const n = Number(limit)
  return n >= 1 && n <= MAX_LIMIT ? n : null
}

/** GET /api/games/{gameId}/timeline (owner and administrators; others 404): events oldest first, by pages. */
export const gameTimeline = Effect.fn("gameTimeline")(function*(
  principal: Principal,
  gameId: string,
  query: { readonly cursor: string | null; readonly limit: string | null },
) {
  const afterSeq = decodeCursor(query.cursor)
  const limit = decodeLimit(query.limit)
  const problems = [
    ...(afterSeq === null ? ["cursor: not a cursor this endpoint gave out; start without one"] : []),
    ...(limit === null ? [`limit: expected an integer from 1 to ${MAX_LIMIT}`] : []),
  ]
  if (problems.length > 0) return yield* new InvalidRequest({ problems })
  if (!GAME_ID_PATTERN.test(gameId)) return yield* new GameNotFoundOrForbidden({ gameId })
  const game = Option.getOrNull(yield* GameStore.use((games) => games.get(gameId)))
  if (game === null || !seesAllReleases(principal, game.ownerId)) return yield* new GameNotFoundOrForbidden({ gameId })
  // One more than asked: whether there is a next page, without a second read.
  const events = yield* Timeline.use((t) => t.list(gameId, afterSeq!, limit! + 1))
  const page = events.slice(0, limit!)
  return {
    events: page.map((e) => ({ at: e.at, kind: e.kind, version: e.version, actor: e.actor, reason: e.reason })),
    nextCursor: events.length > limit! ? encodeCursor(page.at(-1)!.seq) : null,
  }
})
