// Reading a page request and building a page (api-conventions.md): `limit` 1–100 (default 50), an opaque `cursor`,
// and `nextCursor` null on the last page. Stores fetch one row more than the limit so the last page is known without
// a count.
import { Effect } from "effect"
import { InvalidRequest } from "../errors.ts"
import { decodeCursor, encodeCursor, type KeysetOrder } from "./Cursor.ts"

export const DEFAULT_PAGE_LIMIT = 50
export const MAX_PAGE_LIMIT = 100

/** Where a page starts (after `after`, or at the beginning) and how many items it has at most. */
export interface PageRequest<K> {
  readonly limit: number
  readonly after: K | null
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | null
}

/** The raw query parameters, as the request carried them (null when absent). */
export interface PageParams {
  readonly limit: string | null
  readonly cursor: string | null
}

/** Validates `limit` and `cursor` against the list's order; every problem is named, with the next action. */
export const readPageRequest = <K>(order: KeysetOrder<K>, params: PageParams): Effect.Effect<PageRequest<K>, InvalidRequest> => {
  const problems: Array<string> = []
  let limit = DEFAULT_PAGE_LIMIT
  if (params.limit !== null) {
    const parsed = /^\d{1,3}$/.test(params.limit) ? Number(params.limit) : NaN
    if (parsed >= 1 && parsed <= MAX_PAGE_LIMIT) limit = parsed
    else problems.push(`limit: expected a whole number from 1 to ${MAX_PAGE_LIMIT}, got '${params.limit.slice(0, 20)}'`)
  }
  let after: K | null = null
  if (params.cursor !== null) {
    after = decodeCursor(order, params.cursor)
    if (after === null) problems.push("cursor: not a cursor of this list; pass the nextCursor of a previous page, or omit it for the first page")
  }
  return problems.length > 0 ? Effect.fail(new InvalidRequest({ problems })) : Effect.succeed({ limit, after })
}

/**
 * The page of `rows` (which the store read with `limit + 1`): at most `limit` items, and a cursor after the last of
 * them when the store had more.
 */
export const pageOf = <R, K>(order: KeysetOrder<K>, request: PageRequest<K>, rows: ReadonlyArray<R>, keyOf: (row: R) => K): Page<R> => {
  if (rows.length <= request.limit) return { items: rows, nextCursor: null }
  const items = rows.slice(0, request.limit)
  return { items, nextCursor: encodeCursor(order, keyOf(items[items.length - 1]!)) }
}
