// The one cursor codec of every paginated list (api-conventions.md, "Pagination"). A cursor is the keyset position of
// the last item of a page: the values of the list's order columns, tagged with the list's name so a cursor of one list
// is refused by another. It is opaque to clients (base64url of a small JSON array), but not secret: it only names a
// position the caller could have reached by paging.

import { base64UrlToBytes, bytesToBase64Url } from "./base64url.ts"

/** How one list turns its order key into cursor parts and back. */
export interface KeysetOrder<K> {
  /** Written into every cursor of the list; a cursor with another name is refused. */
  readonly list: string
  readonly toParts: (key: K) => ReadonlyArray<string>
  /** The key, or null when the parts cannot be one of this list's keys. */
  readonly fromParts: (parts: ReadonlyArray<string>) => K | null
}

const UTF8_ENCODER = new TextEncoder()
/** One decoder for every call: decoding whole inputs keeps no state between them. */
const UTF8_DECODER = new TextDecoder("utf-8", { fatal: true })

const toBase64Url = (text: string): string => bytesToBase64Url(UTF8_ENCODER.encode(text))

const fromBase64Url = (encoded: string): string | null => {
  const bytes = base64UrlToBytes(encoded)
  if (bytes === null) return null
  try {
    return UTF8_DECODER.decode(bytes)
  } catch {
    return null
  }
}

/** Cursors are short; anything longer was not made by this codec. */
const MAX_CURSOR_LENGTH = 1024

export const encodeCursor = <K>(order: KeysetOrder<K>, key: K): string => toBase64Url(JSON.stringify([order.list, ...order.toParts(key)]))

/** The key a cursor names, or null for anything this list did not hand out. */
export const decodeCursor = <K>(order: KeysetOrder<K>, cursor: string): K | null => {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) return null
  const text = fromBase64Url(cursor)
  if (text === null) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return null
  }
  if (!Array.isArray(parsed) || parsed[0] !== order.list || !parsed.every((part) => typeof part === "string")) return null
  return order.fromParts(parsed.slice(1) as ReadonlyArray<string>)
}

/** A timestamp part: the exact ISO-8601 text `Date#toISOString` writes, nothing else. */
export const instantPart = (part: string | undefined): Date | null => {
  if (part === undefined || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(part)) return null
  const date = new Date(part)
  return Number.isNaN(date.getTime()) || date.toISOString() !== part ? null : date
}

/** An identifier part: non-empty, short, printable ASCII (ids, slugs and versions all are). */
export const idPart = (part: string | undefined): string | null =>
  part !== undefined && part.length > 0 && part.length <= 255 && /^[\x21-\x7e]+$/.test(part) ? part : null
