import { MalformedData } from "../io/errors.ts"
import type { PackEntry } from "../pack/PackLayout.ts"
import { bbcodeLoads } from "../resource/bbcode.ts"
import { poMessages } from "../resource/poTranslation.ts"
import { engineLines } from "../text/engineLines.ts"
import { loadedPathFinding } from "./resourceDataFindings.ts"
import type { Context } from "./scanContext.ts"

/** A `.po` larger than this is not a translator's (a whole game's text is a few MiB). */
const MAX_PO_BYTES = 16 * 1024 * 1024

/**
 * A `.po` translation (poTranslation.ts): the engine loads it as a Translation, and tr() hands its messages to
 * scripts, which show them in RichTextLabels; each [img]/[font] path of a message is judged as the strings of a
 * `.translation` resource are.
 */
export const scanPoTranslation = async (ctx: Context, entry: PackEntry): Promise<void> => {
  if (entry.size > MAX_PO_BYTES) throw new MalformedData(`a ${entry.size}-byte .po file exceeds the ${MAX_PO_BYTES}-byte limit`)
  const file = ctx.contents.creatorPath(entry)
  for (const message of poMessages(engineLines(await ctx.contents.bytesOf(entry), ctx.grammar).join("\n"))) {
    for (const load of bbcodeLoads(message.text, ctx.grammar)) {
      const found = loadedPathFinding(load.path, `[${load.tag}] BBCode of a translation`, { line: message.line, column: 1 }, file, entry.path, { has: (p) => ctx.contents.has(p), from: null, grammar: ctx.grammar })
      if (found !== null) ctx.state.findings.push(found)
    }
  }
}
