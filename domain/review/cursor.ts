// Opaque keyset cursors: the last path of a page, as base64url of its UTF-8 bytes (no runtime-specific encoder).

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
const MAX_CURSOR_CHARS = 8192

export const encodeCursor = (key: string): string => {
  const bytes = new TextEncoder().encode(key)
  let out = ""
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2
    for (let c = 0; c < chars; c++) out += ALPHABET[(n >> (18 - 6 * c)) & 63]
  }
  return out
}

/** The key a cursor carries, or null when it is not one of ours. */
export const decodeCursor = (cursor: string): string | null => {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_CHARS || cursor.length % 4 === 1) return null
  const bytes: Array<number> = []
  for (let i = 0; i < cursor.length; i += 4) {
    const group = cursor.slice(i, i + 4)
    let n = 0
    for (let c = 0; c < 4; c++) {
      const v = c < group.length ? ALPHABET.indexOf(group[c] ?? "") : 0
      if (v < 0) return null
      n = (n << 6) | v
    }
    bytes.push((n >> 16) & 255)
    if (group.length > 2) bytes.push((n >> 8) & 255)
    if (group.length > 3) bytes.push(n & 255)
  }
  try {
    const key = new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes))
    // Only canonical encodings: every cursor has exactly one spelling.
    return encodeCursor(key) === cursor ? key : null
  } catch {
    return null
  }
}
