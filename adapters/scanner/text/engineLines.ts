import { MalformedData } from "../io/errors.ts"
import { decodeGodot3Utf8, decodeGodot4Utf8, godot3Refusal } from "./godotUtf8.ts"

/**
 * A text file's lines as FileAccess::get_line reads them: the bytes up to a `\n` or a NUL, every `\r` dropped, then
 * String::utf8 of that line alone. A line Godot 3's first pass refuses is empty (the next one is read as it is); Godot 4
 * puts U+FFFD in place of bad bytes. Decoding the whole file at once let a bad byte before a `\n` swallow the line
 * break and the line after it (a fifty-fourth red team's `.po`). A line Godot 3 decodes only part-way (`msgstr
 * "[img]user://x.tres[/img]" \xC3X`, `page … file="…" a=\xC3X file="…"`) is kept half decoded, the rest of it what
 * memory held: refused (an eighty-eighth red team's `.po` and `.fnt`, each of which the engine read up to the bad byte).
 */
export const engineLines = (bytes: Uint8Array, grammar: 3 | 4): ReadonlyArray<string> => {
  const lines: Array<string> = []
  let start = 0
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a && bytes[i] !== 0) continue
    const line = bytes.subarray(start, i).filter((b) => b !== 0x0d)
    const decoded = grammar === 3 ? decodeGodot3Utf8(line) : decodeGodot4Utf8(line)
    if (decoded === null && godot3Refusal(line) === "half") {
      throw new MalformedData(`line ${lines.length + 1} is UTF-8 that Godot 3 decodes only part-way: the engine keeps the line half decoded, the rest of it whatever memory held; save the file as UTF-8`)
    }
    lines.push(decoded ?? "")
    start = i + 1
  }
  return lines
}
