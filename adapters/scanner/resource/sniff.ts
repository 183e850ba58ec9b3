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

export const SNIFF_BYTES = 16

export const sniff = (head: Uint8Array): Sniffed => {
  const magic = ascii(head, 0, 4)
  if (magic === "RSRC" || magic === "RSCC") return "binary-resource"
  if (magic === "GDSC") return "tokenized-script"
  if (magic === "GDEC") return "encrypted-file"
  const text = ascii(head, head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0, SNIFF_BYTES)
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
