// Opaque keyset cursors: the last path of a page, as base64url of its UTF-8 bytes.
import { base64UrlToBytes, bytesToBase64Url } from "../paging/base64url.ts"

const MAX_CURSOR_CHARS = 8192
const UTF8_ENCODER = new TextEncoder()
const UTF8_DECODER = new TextDecoder("utf-8", { fatal: true })

export const encodeCursor = (key: string): string => bytesToBase64Url(UTF8_ENCODER.encode(key))

/** The key a cursor carries, or null when it is not one of ours. */
export const decodeCursor = (cursor: string): string | null => {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_CHARS) return null
  const bytes = base64UrlToBytes(cursor)
  if (bytes === null) return null
  try {
    const key = UTF8_DECODER.decode(bytes)
    // Only canonical encodings: every cursor has exactly one spelling.
    return encodeCursor(key) === cursor ? key : null
  } catch {
    return null
  }
}
