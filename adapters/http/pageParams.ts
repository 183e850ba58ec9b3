import type { PageParams } from "../../domain/paging/Page.ts"

/** A list request's `limit` and `cursor` query parameters, as sent (the use case validates them). */
export const pageParamsOf = (request: Request): PageParams => {
  const query = new URL(request.url).searchParams
  return { limit: query.get("limit"), cursor: query.get("cursor") }
}
