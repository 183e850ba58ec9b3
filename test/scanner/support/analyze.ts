// Runs the script analysis on sources given as text, as if they were the scripts of one pack.
import { analyzeScript } from "../../../adapters/scanner/gdscript/analyzeScript.ts"
import { engineNames } from "../../../adapters/scanner/gdscript/engineClasses.ts"
import { indexPolicy } from "../../../adapters/scanner/gdscript/PolicyIndex.ts"
import { PackModel, type PackScript } from "../../../adapters/scanner/gdscript/packModel.ts"
import { parseScript } from "../../../adapters/scanner/gdscript/parser.ts"
import type { Grammar } from "../../../adapters/scanner/gdscript/tokenizer.ts"
import { defaultPolicy } from "../../../adapters/scanner/policy/defaultPolicy.ts"
import type { Policy } from "../../../adapters/scanner/policy/Policy.ts"

export const packOf = (files: Readonly<Record<string, string>>, grammar: Grammar): ReadonlyArray<PackScript> =>
  Object.entries(files).map(([path, source]) => ({ key: path, path, ast: parseScript(source, grammar), grammar }))

/** Every class_name of the scripts registered as a global class, as the editor registers them (first one of a name wins). */
export const registrationsOf = (scripts: ReadonlyArray<PackScript>): ReadonlyMap<string, string> => {
  const map = new Map<string, string>()
  for (const s of scripts) if (s.ast.root.name !== null && s.path !== null && !map.has(s.ast.root.name)) map.set(s.ast.root.name, s.path)
  return map
}

/** The pack model of the scripts with every class_name registered (or only `registered`) and the engine's names. */
export const modelOf = (scripts: ReadonlyArray<PackScript>, grammar: Grammar, policy: Policy = defaultPolicy, registered: ReadonlyMap<string, string> = registrationsOf(scripts)): PackModel =>
  new PackModel(scripts, registered, engineNames(grammar, indexPolicy(policy)))

/** `line:column severity policy-id matched` of every hit in `main`, the other files only in view. */
export const hitsIn = (main: string, others: Readonly<Record<string, string>> = {}, grammar: Grammar = 4, policy: Policy = defaultPolicy): ReadonlyArray<string> => {
  const scripts = packOf({ "res://main.gd": main, ...others }, grammar)
  const model = modelOf(scripts, grammar, policy)
  const script = scripts[0]
  if (script === undefined) return []
  return [...analyzeScript(script, model, policy).hits]
    .sort((a, b) => a.line - b.line || a.column - b.column || (a.entry.id < b.entry.id ? -1 : 1))
    .map((h) => `${h.line}:${h.column} ${h.severity} ${h.entry.id} ${h.matched}`)
}

export const hits3 = (main: string, others: Readonly<Record<string, string>> = {}): ReadonlyArray<string> => hitsIn(main, others, 3)

/** Policy ids only, in order. */
export const ids = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.map((h) => h.split(" ")[2] ?? "")
