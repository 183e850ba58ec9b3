import { MalformedData } from "../io/errors.ts"
import { baseDir } from "../pack/packPath.ts"
import type { PackEntry } from "../pack/PackLayout.ts"
import { bmfontPages, plusFile } from "../resource/bmfont.ts"
import { loadedPathFinding } from "./resourceDataFindings.ts"
import type { Context } from "./scanContext.ts"

/** A `.fnt` larger than this is not an exporter's (a font of every Unicode glyph is a few MiB of text). */
const MAX_FONT_BYTES = 16 * 1024 * 1024

/** A BMFont `.fnt`: each page file it names is a path the engine loads, relative to the font's folder (bmfont.ts). */
export const scanBitmapFont = async (ctx: Context, entry: PackEntry): Promise<void> => {
  if (entry.size > MAX_FONT_BYTES) throw new MalformedData(`a ${entry.size}-byte BMFont file exceeds the ${MAX_FONT_BYTES}-byte limit`)
  const file = ctx.contents.creatorPath(entry)
  const folder = baseDir(entry.path)
  for (const page of bmfontPages(await ctx.contents.bytesOf(entry), ctx.grammar)) {
    const path = plusFile(folder, page.file)
    const found = loadedPathFinding(path, `BMFont page ${page.file}`, page.line === null ? null : { line: page.line, column: 1 }, file, entry.path, { has: (p) => ctx.contents.has(p), from: null, grammar: ctx.grammar })
    if (found !== null) ctx.state.findings.push(found)
  }
}

