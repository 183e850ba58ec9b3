// Runs the script analysis on sources given as text, as if they were the scripts of one pack.
import { analyzeScript } from "../../../adapters/scanner/gdscript/analyzeScript.ts"
import { PackModel, type PackScript } from "../../../adapters/scanner/gdscript/packModel.ts"
import { parseScript } from "../../../adapters/scanner/gdscript/parser.ts"
import type { Grammar } from "../../../adapters/scanner/gdscript/tokenizer.ts"
import { defaultPolicy } from "../../../adapters/scanner/policy/defaultPolicy.ts"
import type { Policy } from "../../../adapters/scanner/policy/Policy.ts"

export const packOf = (files: Readonly<Record<string, string>>, grammar: Grammar): ReadonlyArray<PackScript> =>
  Object.entries(files).map(([path, source]) => ({ key: path, path, ast: parseScript(source, grammar), grammar }))

/** `line:column severity policy-id matched` of every hit in `main`, the other files only in view. */
export const hitsIn = (main: string, others: Readonly<Record<string, string>> = {}, grammar: Grammar = 4, policy: Policy = defaultPolicy): ReadonlyArray<string> => {
  const scripts = packOf({ "res://main.gd": main, ...others }, grammar)
  const model = new PackModel(scripts)
  const script = scripts[0]
  if (script === undefined) return []
  return [...analyzeScript(script, model, policy).hits]
    .sort((a, b) => a.line - b.line || a.column - b.column || (a.entry.id < b.entry.id ? -1 : 1))
    .map((h) => `${h.line}:${h.column} ${h.severity} ${h.entry.id} ${h.matched}`)
}

export const hits3 = (main: string, others: Readonly<Record<string, string>> = {}): ReadonlyArray<string> => hitsIn(main, others, 3)

/** Policy ids only, in order. */
export const ids = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.map((h) => h.split(" ")[2] ?? "")
