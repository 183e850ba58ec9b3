import type { ShellData } from "../gdscript/analyzeScript.ts"
import { PACK_DATA } from "../gdscript/bbcodeTemplate.ts"
import { isWebUrl } from "../gdscript/callSite.ts"
import type { DataBbcode } from "../gdscript/linkMetas.ts"
import type { PatternHit } from "../gdscript/PolicyIndex.ts"
import { bbcodeUrlMetas } from "../resource/bbcode.ts"
import { bbcodeDataStrings, OPEN_END, opensTag } from "./bbcodeData.ts"
import type { Context } from "./scanContext.ts"

// `OS.shell_open` of a RichTextLabel's `meta_clicked` meta where some BBCode of the pack puts strings of its own data
// files in links (red team 18b's credits: `t += "%s: [url=%s]%s[/url]\n" % [c.role, c.url, c.name]` over
// res://data/credits.json): the metas that BBCode can push are worked out with the files' strings, as the engine
// parses them, and each must be a web address, as must the pack's constant metas; then the call is the web-address
// warning naming them, else the rule's error. A link whose address joins two strings of the data, or a string or
// piece that leaves a tag or a `[url]`'s text open for what follows, cannot be worked out one string at a time: an
// error, as is a file the scanner cannot read.

/** The text a piece holds when its own tags are checked: each string of the data a letter, which opens and closes nothing. */
const NEUTRAL = "x"

/** Whether a text leaves a tag or a `[url]`'s text open at its end, for the text after it to complete. */
const leavesOpen = (text: string, grammar: Context["grammar"]): boolean => opensTag(text, grammar) || bbcodeUrlMetas(text + OPEN_END).some((m) => m.endsWith(OPEN_END))

/** Stands for the other strings of the data while one is put in its place: the metas holding it are worked out with those. */
const ELSEWHERE = "\uFDD3"

/**
 * The metas a template pushes with each string in place of each of its data parts in turn (the others ELSEWHERE): a
 * meta holds at most one part (metasOf), so each is worked out with the string it holds.
 */
const linkMetas = (template: string, strings: (place: number) => ReadonlyArray<string>): ReadonlyArray<string> => {
  const parts = template.split(PACK_DATA)
  if (parts.length === 1) return bbcodeUrlMetas(template)
  const out: Array<string> = []
  for (let i = 1; i < parts.length; i++) {
    for (const s of strings(i - 1)) {
      const text = parts.map((p, j) => (j === 0 ? p : `${j === i ? s : ELSEWHERE}${p}`)).join("")
      out.push(...bbcodeUrlMetas(text).filter((m) => !m.includes(ELSEWHERE)))
    }
  }
  return out
}

/** The metas one BBCode of the data can push, or why they cannot be told. */
const metasOf = async (ctx: Context, d: DataBbcode): Promise<{ readonly metas: ReadonlyArray<string> } | { readonly problem: string }> => {
  const got = await bbcodeDataStrings(ctx, d)
  if ("problem" in got) return got
  const strings = [...got.strings, ...d.constants]
  const metas: Array<string> = []
  // A link's meta is worked out with the strings its own data part can be, when the analysis followed each part.
  const byPlace: Array<ReadonlyArray<ReadonlyArray<string>>> = []
  for (const places of d.places ?? d.templates.map(() => [])) {
    const each: Array<ReadonlyArray<string>> = []
    for (const sels of places) {
      const own = sels === null ? null : await bbcodeDataStrings(ctx, { sources: d.sources, sels })
      each.push(own === null || "problem" in own ? strings : [...own.strings, ...d.constants])
    }
    byPlace.push(each)
  }
  for (const [t, template] of d.templates.entries()) {
    if (bbcodeUrlMetas(template).some((m) => m.split(PACK_DATA).length > 2)) return { problem: "a link's address joins several strings of the data" }
    const several = d.joined || template.split(PACK_DATA).length > 2
    const open = several ? strings.find((s) => leavesOpen(s, ctx.grammar)) : undefined
    if (open !== undefined) return { problem: `a string of the data (${JSON.stringify(open.slice(0, 60))}) leaves a tag or a link open that the text after it may complete` }
    if (d.joined && leavesOpen(template.replaceAll(PACK_DATA, NEUTRAL), ctx.grammar)) return { problem: `the BBCode is built by joining pieces, and one (${JSON.stringify(template.replaceAll(PACK_DATA, "…").slice(0, 60))}) leaves a tag or a link open that the next piece may complete` }
    metas.push(...linkMetas(template, (place) => byPlace[t]?.[place] ?? strings))
  }
  return { metas }
}

export const judgeShellData = async (ctx: Context, data: ShellData): Promise<ReadonlyArray<PatternHit>> => {
  const sources = [...new Set(data.data.flatMap((d) => d.sources))].join(", ")
  const base = { entry: data.entry, line: data.line, column: data.column, matched: data.matched }
  const error = (note: string): ReadonlyArray<PatternHit> => [
    { ...base, severity: data.entry.severity, note: `it opens the meta of the link clicked, and links of the BBCode come from ${sources}: ${note}`, fix: "Keep only http:// or https:// addresses in the data's links (and whole tags in each string of it)" },
  ]
  const metas = [...data.urls]
  for (const d of data.data) {
    const got = await metasOf(ctx, d)
    if ("problem" in got) return error(got.problem)
    metas.push(...got.metas)
  }
  const bad = metas.find((m) => !isWebUrl(m))
  if (bad !== undefined) return error(`a link can pass ${JSON.stringify(bad.slice(0, 80))}, which is no web address`)
  const shown = [...new Set(metas)]
  const sdk = data.sdk ? "; the function it is in belongs to a class that extends the platform SDK's, whose code the scanner cannot see: if the SDK calls a function of that name, it opens what the SDK passes, so check that the function is no hook of the SDK" : ""
  const note = `it opens the meta of the link clicked, every one a web address of the pack's links (from ${sources} and its constant BBCode): ${shown.slice(0, 5).join(", ")}${shown.length > 5 ? ", …" : ""}; check that they are the game's own pages${sdk}`
  return [{ ...base, severity: data.webSeverity, note, fix: "Keep the addresses constant http:// or https:// URLs; anything else (a file, a path) is an error" }]
}
