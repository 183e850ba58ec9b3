// The pages behind the administrators' and creators' lists: a page request checked against the list's order, one
// keyset read of one row more than the limit, and the cursor of the next page.
import { Effect } from "effect"
import { PagedLists } from "../../ports/PagedLists.ts"
import { OWNER_GAMES_ORDER, QUEUE_ORDER } from "./orders.ts"
import { type PageParams, pageOf, readPageRequest } from "./Page.ts"

/** A request without paging parameters: the first page at the default limit. */
export const FIRST_PAGE: PageParams = { limit: null, cursor: null }

/** A page of pending releases, oldest first. */
export const pendingReleasesPage = Effect.fnUntraced(function*(params: PageParams) {
  const request = yield* readPageRequest(QUEUE_ORDER, params)
  const rows = yield* PagedLists.use((lists) => lists.pendingReleases(request.after, request.limit + 1))
  return pageOf(QUEUE_ORDER, request, rows, (r) => ({ createdAt: r.createdAt, gameId: r.gameId, version: r.version }))
})

/** A page of the owner's games, oldest first. */
export const ownerGamesPage = Effect.fnUntraced(function*(ownerId: string, params: PageParams) {
  const request = yield* readPageRequest(OWNER_GAMES_ORDER, params)
  const rows = yield* PagedLists.use((lists) => lists.gamesOfOwner(ownerId, request.after, request.limit + 1))
  return pageOf(OWNER_GAMES_ORDER, request, rows, (g) => ({ createdAt: g.createdAt, gameId: g.id }))
})
