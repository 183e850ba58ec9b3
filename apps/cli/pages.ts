// Lists that the service may paginate (api-conventions.md): follow `nextCursor` until it is null or absent.
import type { Schema } from "effect"
import type { Client } from "./client.ts"
import { cliError } from "./failure.ts"

/** Every page of `path`, in order, each decoded with `schema`; the consumer may stop early. */
export async function* pagesOf<S extends Schema.ConstraintDecoder<unknown>>(client: Client, path: string, schema: S): AsyncGenerator<S["Type"]> {
  const seen = new Set<string>()
  let cursor: string | null = null
  do {
    const url: string = cursor === null ? path : `${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`
    const page: { readonly value: S["Type"]; readonly nextCursor: string | null } = await client.page(url, schema)
    yield page.value
    cursor = page.nextCursor
    // A service that hands out the same cursor again would keep this loop going forever.
    if (cursor !== null && seen.has(cursor)) throw cliError("unexpected_response", `GET ${path} returned the cursor '${cursor}' twice`)
    if (cursor !== null) seen.add(cursor)
  } while (cursor !== null)
}

/** The items of every page, in order. */
export const allItems = async <S extends Schema.ConstraintDecoder<unknown>, I>(
  client: Client,
  path: string,
  schema: S,
  items: (page: S["Type"]) => ReadonlyArray<I>,
): Promise<Array<I>> => {
  const all: Array<I> = []
  for await (const page of pagesOf(client, path, schema)) all.push(...items(page))
  return all
}
