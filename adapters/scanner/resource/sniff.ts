// What an entry is, from its first bytes, whatever its name says.

export type Sniffed =
  | "binary-resource" // RSRC / RSCC
  | "tokenized-script" // GDSC
  | "encrypted-file" // GDEC
  | "text-resource" // [gd_scene / [gd_resource
  | "native-elf"
  | "native-pe-candidate" // MZ: confirmed by the PE signature
  | "native-macho"
  | "native-wasm"
  | "other"

const ascii = (bytes: Uint8Array, from: number, to: number): string => String.fromCharCode(...bytes.subarray(from, to))

export const SNIFF_BYTES = 64

/**
 * Where a text resource's first tag may start: the engine's VariantParser::get_token skips every byte up to
 * 32 (spaces, tabs, newlines) and ';' comments to the end of the line before the `[gd_scene` tag, so a
 * leading newline does not make a scene something else. A UTF-8 byte order mark is skipped too.
 */
const firstTokenAt = (head: Uint8Array): number => {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0
  while (i < head.length) {
    const b = head[i] ?? 0
    if (b === 0x3b) {
      while (i < head.length && head[i] !== 0x0a) i++
    } else if (b <= 32) i++
    else break
  }
  return i
}

export const sniff = (head: Uint8Array): Sniffed => {
  const magic = ascii(head, 0, 4)
  if (magic === "RSRC" || magic === "RSCC") return "binary-resource"
  if (magic === "GDSC") return "tokenized-script"
  if (magic === "GDEC") return "encrypted-file"
  const text = ascii(head, firstTokenAt(head), head.length)
  if (text.startsWith("[gd_scene") || text.startsWith("[gd_resource")) return "text-resource"
  if (magic === "\x7fELF") return "native-elf"
  if (magic === "\0asm") return "native-wasm"
  const b = Array.from(head.subarray(0, 4))
  const machO = [
    [0xfe, 0xed, 0xfa, 0xce],
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xce, 0xfa, 0xed, 0xfe],
    [0xcf, 0xfa, 0xed, 0xfe],
    [0xca, 0xfe, 0xba, 0xbe],
  ]
  if (machO.some((m) => m.every((v, i) => b[i] === v))) return "native-macho"
  if (head[0] === 0x4d && head[1] === 0x5a) return "native-pe-candidate"
  return "other"
}
