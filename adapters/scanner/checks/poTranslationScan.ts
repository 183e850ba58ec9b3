import { MalformedData } from "../io/errors.ts"
import type { PackEntry } from "../pack/PackLayout.ts"
import { bbcodeLoads } from "../resource/bbcode.ts"
import { poMessages } from "../resource/poTranslation.ts"
import { decodeGodot3Utf8, decodeGodot4Utf8 } from "../text/godotUtf8.ts"
import { loadedPathFinding } from "./resourceDataFindings.ts"
import type { Context } from "./scanContext.ts"

/** A `.po` larger than this is not a translator's (a whole game's text is a few MiB). */
const MAX_PO_BYTES = 16 * 1024 * 1024

/**
 * The text as the loader reads it, line by line (FileAccess::get_line: the bytes up to a `\n` or a NUL, every `\r`
 * dropped, then String::utf8 of that line alone), lines joined by `\n`. A line Godot 3 refuses to decode is empty (the
 * next one is read as it is); Godot 4 puts U+FFFD in place of bad bytes. Decoding the whole file at once let a bad
 * byte before a `\n` swallow the line break and the message after it (a fifty-fourth red team's).
 */
const engineLines = (bytes: Uint8Array, grammar: 3 | 4): string => {
  const lines: Array<string> = []
  let start = 0
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a && bytes[i] !== 0) continue
    const line = bytes.subarray(start, i).filter((b) => b !== 0x0d)
    lines.push(grammar === 3 ? (decodeGodot3Utf8(line) ?? "") : decodeGodot4Utf8(line))
    start = i + 1
  }
  return lines.join("\n")
}

/**
 * A `.po` translation (poTranslation.ts): the engine loads it as a Translation, and tr() hands its messages to
 * scripts, which show them in RichTextLabels; each [img]/[font] path of a message is judged as the strings of a
 * `.translation` resource are.
 */
export const scanPoTranslation = async (ctx: Context, entry: PackEntry): Promise<void> => {
  if (entry.size > MAX_PO_BYTES) throw new MalformedData(`a ${entry.size}-byte .po file exceeds the ${MAX_PO_BYTES}-byte limit`)
  const file = ctx.contents.creatorPath(entry)
  for (const message of poMessages(engineLines(await ctx.contents.bytesOf(entry), ctx.grammar))) {
    for (const load of bbcodeLoads(message.text, ctx.grammar)) {
      const found = loadedPathFinding(load.path, `[${load.tag}] BBCode of a translation`, { line: message.line, column: 1 }, file, entry.path, { has: (p) => ctx.contents.has(p), from: null, grammar: ctx.grammar })
      if (found !== null) ctx.state.findings.push(found)
    }
  }
}
