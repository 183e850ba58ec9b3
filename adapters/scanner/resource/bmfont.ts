// The page images of an AngelCode BMFont file (`.fnt`), read as the engine reads them. Godot 3 loads a
// `.fnt` at run time (ResourceFormatLoaderBMFont, BitmapFont::create_from_fnt in scene/resources/font.cpp):
// it reads the text form line by line, and for each `page … file="name"` line loads
// `<folder of the .fnt>/name` with ResourceLoader::load, which is any resource (a `.tres` can carry a
// script). Godot 4's FontFile::load_bitmap_font reads the text form and the binary one (`BMF` and a
// version byte, then blocks: a type byte, a u32 size; block 2 holds the page names, each ending in a zero).
import { engineLines } from "../text/engineLines.ts"

/** One page file a font names, as written, with the 1-based line of the text form (null in the binary form). */
export interface FontPage {
  readonly file: string
  readonly line: number | null
}

const BINARY_MAGIC = [0x42, 0x4d, 0x46]

/** Key/value pairs of a text line after its type, as create_from_fnt splits them (quoted values lose their quotes). */
const keysOf = (line: string, from: number): Map<string, string> => {
  const keys = new Map<string, string>()
  let pos = from
  while (pos < line.length && line[pos] === " ") pos++
  while (pos < line.length) {
    const eq = line.indexOf("=", pos)
    if (eq < 0) break
    const key = line.slice(pos, eq)
    let value: string
    if (line[eq + 1] === '"') {
      const end = line.indexOf('"', eq + 2)
      if (end < 0) break
      value = line.slice(eq + 2, end)
      pos = end + 1
    } else {
      let end = line.indexOf(" ", eq + 1)
      if (end < 0) end = line.length
      // The engine takes one character more than the value here (substr(eq + 1, end - eq)).
      value = line.slice(eq + 1, end + 1)
      pos = end
    }
    while (pos < line.length && line[pos] === " ") pos++
    keys.set(key, value)
  }
  return keys
}

const textPages = (bytes: Uint8Array, grammar: 3 | 4): ReadonlyArray<FontPage> => {
  const lines = engineLines(bytes, grammar)
  const out: Array<FontPage> = []
  lines.forEach((line, i) => {
    const space = line.indexOf(" ")
    if ((space < 0 ? line : line.slice(0, space)) !== "page" || space < 0) return
    const file = keysOf(line, space + 1).get("file")
    if (file !== undefined) out.push({ file, line: i + 1 })
  })
  return out
}

const binaryPages = (bytes: Uint8Array): ReadonlyArray<FontPage> => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out: Array<FontPage> = []
  for (let at = 4; at + 5 <= bytes.length; ) {
    const type = bytes[at] ?? 0
    const size = view.getUint32(at + 1, true)
    const start = at + 5
    const end = Math.min(bytes.length, start + size)
    if (type === 2) {
      const names = new TextDecoder().decode(bytes.subarray(start, end)).split("\u0000")
      for (const file of names) if (file !== "") out.push({ file, line: null })
    }
    at = start + size
  }
  return out
}

/** The page files of a `.fnt` file's bytes, text (its lines as the engine of `grammar` reads them) or binary form. */
export const bmfontPages = (bytes: Uint8Array, grammar: 3 | 4): ReadonlyArray<FontPage> =>
  BINARY_MAGIC.every((b, i) => bytes[i] === b) ? binaryPages(bytes) : textPages(bytes, grammar)

/** String::plus_file / path_join: the folder and the name with one `/` between them. */
export const plusFile = (folder: string, file: string): string => (folder === "" ? file : folder.endsWith("/") || file.startsWith("/") ? folder + file : `${folder}/${file}`)
