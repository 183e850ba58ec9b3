import table from "./engine-classes.json" with { type: "json" }
import globals from "./engine-globals.json" with { type: "json" }
import type { PolicyIndex } from "./PolicyIndex.ts"
import type { Grammar } from "./tokenizer.ts"

// The names of the engine's classes and singletons (engine-classes.json, generated from Godot's class
// reference by test/scanner/support/generateEngineClasses.ts), with every spelling the policy knows
// (`_OS`, `IP_Unix`). A pack's class never stands for one of these names.

const byGrammar: Readonly<Record<Grammar, ReadonlySet<string>>> = { 3: new Set(table[3]), 4: new Set(table[4]) }
const cache = new WeakMap<PolicyIndex, Map<Grammar, (name: string) => boolean>>()

/** Whether `name` is an engine class or singleton for the grammar's engine (or one the policy names). */
export const engineNames = (grammar: Grammar, idx: PolicyIndex): ((name: string) => boolean) => {
  let byPolicy = cache.get(idx)
  if (byPolicy === undefined) cache.set(idx, (byPolicy = new Map()))
  const cached = byPolicy.get(grammar)
  if (cached !== undefined) return cached
  const known = byGrammar[grammar]
  const check = (name: string): boolean => known.has(name) || idx.guarded.has(name) || idx.identifiers.has(name) || idx.instanceClasses.has(name)
  byPolicy.set(grammar, check)
  return check
}

// The functions a bare call names before any method of the script's class (engine-globals.json, generated
// by test/scanner/support/generateEngineGlobals.ts): Godot 3's @GDScript built-ins, Godot 4's utility
// functions. `load(p)` in a class extending ConfigFile is the global load; `save(p)` is self's ConfigFile.save.
const globalsByGrammar: Readonly<Record<Grammar, ReadonlySet<string>>> = { 3: new Set(globals[3]), 4: new Set(globals[4]) }

/** Whether a bare call of `name` is the engine's global function rather than a method of self. */
export const isGlobalFunction = (grammar: Grammar, name: string): boolean => globalsByGrammar[grammar].has(name)
