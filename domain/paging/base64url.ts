// base64url without padding (RFC 4648 §5), the text of every cursor: table-driven, with no runtime-specific encoder
// (Buffer) and nothing allocated per character, since a cursor is decoded on every paginated request.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/** Each ASCII code's value in the alphabet, -1 for anything else. */
const VALUES = (() => {
  const values = new Int8Array(128).fill(-1)
  for (let i = 0; i < ALPHABET.length; i++) values[ALPHABET.charCodeAt(i)] = i
  return values
})()

export const bytesToBase64Url = (bytes: Uint8Array): string => {
  let out = ""
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!
  }
  if (i + 1 === bytes.length) {
    const n = bytes[i]! << 16
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!
  } else if (i + 2 === bytes.length) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8)
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!
  }
  return out
}

/**
 * The bytes of base64url text without padding, or null for a character outside the alphabet or a length no encoding
 * has (4n + 1). Like `atob`, the unused low bits of the last character are not checked.
 */
export const base64UrlToBytes = (text: string): Uint8Array<ArrayBuffer> | null => {
  if (text.length % 4 === 1) return null
  const bytes = new Uint8Array((text.length * 3) >> 2)
  let value = 0
  let bits = 0
  let at = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const sextet = code < 128 ? VALUES[code]! : -1
    if (sextet < 0) return null
    value = ((value << 6) | sextet) & 0xffff
    bits += 6
    if (bits >= 8) {
      bits -= 8
      bytes[at++] = (value >> bits) & 255
    }
  }
  return bytes
}
