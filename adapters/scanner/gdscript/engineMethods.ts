import table from "./engine-methods.json" with { type: "json" }
import { engineBaseMethods } from "./engineBaseMethods.ts"
import type { DispatchIndex } from "./engineDispatch.ts"
import { fileWriteNames } from "./engineFileWrites.ts"
import type { PolicyIndex } from "./PolicyIndex.ts"
import type { Grammar } from "./tokenizer.ts"

// Which engine classes have each method a rule of the scanner names (engine-methods.json, generated from Godot's
// class reference by test/scanner/support/generateEngineMethods.ts): the classes that declare it and every class
// that inherits it by the reference's `inherits` (a member's setter and getter count as methods; `Object` alone
// stands for every class), with the parent of each class listed and of its ancestors. A script runs with `self`
// being whatever object it is attached to: `set_script` and `script =` attach a script to any object whose class
// descends from the script's engine base (GDScript's instance_create checks only that), so a method neither the
// script's pack classes nor that base has may be the method of an engine object of a subclass of the base
// (`OS.execute` for a script that extends Object; no Node has one, so not for a script that extends Node).

interface Table {
  readonly methods: Readonly<Record<string, ReadonlyArray<string>>>
  readonly parents: Readonly<Record<string, string>>
}

const byGrammar: Readonly<Record<Grammar, Table>> = { 3: table[3], 4: table[4] }

/** The engine class a script without `extends` extends. */
export const IMPLICIT_BASE: Readonly<Record<Grammar, string>> = { 3: "Reference", 4: "RefCounted" }

const classesWith = (grammar: Grammar, name: string): ReadonlyArray<string> | undefined => (Object.hasOwn(byGrammar[grammar].methods, name) ? byGrammar[grammar].methods[name] : undefined)

/** Whether an object of engine class `cls` has method `name` by the table (false for a name it does not list). */
export const engineClassHas = (grammar: Grammar, cls: string, name: string): boolean => {
  const classes = classesWith(grammar, name)
  return classes !== undefined && (classes.includes(cls) || classes.includes("Object"))
}

/** Whether `name` is a method the table lists for the grammar's engine. */
export const engineTableKnows = (grammar: Grammar, name: string): boolean => classesWith(grammar, name) !== undefined

/** Whether engine class `cls` or a class it descends from has method `name` by the table. */
export const engineClassInherits = (grammar: Grammar, cls: string, name: string): boolean => classesWith(grammar, name)?.some((c) => c === "Object" || descends(grammar, cls, c)) ?? false

/** Whether engine class `cls` is `base` or descends from it (an object of `cls` runs a script extending `base`). */
export const engineDescends = (grammar: Grammar, cls: string, base: string): boolean => descends(grammar, cls, base)

/** Whether engine class `cls` is `base` or descends from it (by the table's parents). */
const descends = (grammar: Grammar, cls: string, base: string): boolean => {
  const parents = byGrammar[grammar].parents
  for (let c: string | undefined = cls, n = 0; c !== undefined && n < 64; c = Object.hasOwn(parents, c) ? parents[c] : undefined, n++) if (c === base) return true
  return false
}

/** Whether an engine class that is `base` or descends from it has method `name` (a name the table does not list counts: the policy is newer). */
export const subclassMayHave = (grammar: Grammar, base: string, name: string): boolean => {
  const classes = classesWith(grammar, name)
  return classes === undefined || classes.some((c) => c === "Object" || descends(grammar, c, base))
}

const named = new WeakMap<PolicyIndex, Map<Grammar, ReadonlySet<string>>>()

/**
 * The method names a rule judges by name on a receiver of some engine class (or of unknown class) but not on
 * every object: the file writes, the policy's member, argument, path, runtime-load and data-decoding calls, and the
 * dispatch table's methods of classes other than Object and Node; not Object's and Node's own dispatch
 * methods (`call`, `rpc`), which every object or node has.
 * On a name outside this set, no rule tells one engine class from another.
 */
export const ruleNamedMethods = (idx: PolicyIndex, dispatch: DispatchIndex, grammar: Grammar): ReadonlySet<string> => {
  let perGrammar = named.get(idx)
  if (perGrammar === undefined) named.set(idx, (perGrammar = new Map()))
  const cached = perGrammar.get(grammar)
  if (cached !== undefined) return cached
  const names = new Set<string>()
  const method = (call: string): string => call.slice(call.lastIndexOf(".") + 1)
  for (const { match } of idx.paths) for (const t of [...Object.values(match.instances), ...Object.values(match.static)]) for (const m of Object.keys(t)) names.add(m)
  for (const m of [...idx.members.keys(), ...idx.arguments.keys()]) names.add(m)
  for (const call of [...Object.keys(idx.runtimeLoad?.match.calls ?? {}), ...Object.keys(idx.dataDecoding?.match.calls ?? {}), ...Object.keys(idx.dataDecoding?.match.texts ?? {})]) names.add(method(call))
  for (const [m, entries] of dispatch.byName) if (entries.some((d) => d.class !== "Object" && d.class !== "Node" && !d.class.startsWith("@") && d.kind !== "member")) names.add(m)
  for (const m of fileWriteNames(grammar)) names.add(m)
  // Object's and Node's own dispatch methods (call, rpc, …) keep the own-object reading, which knows the class's methods.
  for (const m of [...names]) if (m === "" || (dispatch.byName.get(m) ?? []).some((d) => d.class === "Object" || d.class === "Node")) names.delete(m)
  perGrammar.set(grammar, names)
  return names
}

/**
 * Whether a call of `name` on an object of a pack class whose chain ends in engine class `base` (or on a value that
 * may be one: self, an alias of it) may reach another engine class's method: a rule names it, neither `base` has it
 * (engine-methods.json) nor does a rule name it for `base` itself, and an engine class that descends from `base` has
 * it. Self may then be an engine object of that class, so the call is judged as on a receiver of unknown class.
 */
export const reachesBeyondBase = (idx: PolicyIndex, dispatch: DispatchIndex, grammar: Grammar, base: string, name: string): boolean =>
  ruleNamedMethods(idx, dispatch, grammar).has(name) && !engineClassHas(grammar, base, name) && !engineBaseMethods(idx, grammar, base).includes(name) && subclassMayHave(grammar, base, name)

/**
 * Whether engine class `cls` has a method a rule names for that class (or one it descends from), not for every object
 * or node: a path or load rule's call of the class (`SceneTree.change_scene`, `ConfigFile.save`), or a dispatch API
 * of the class (`Tween.interpolate_callback`). A script given such an object may call it on self by a name out of
 * sight. A rule that names a method of another class only (OS's `set_environment`, Thread's `start`) does not count.
 */
export const hasRuledMethod = (idx: PolicyIndex, dispatch: DispatchIndex, grammar: Grammar, cls: string): boolean => {
  // An object typed MainLoop is the game's SceneTree (the main loop the engine runs unless a setting names another).
  if (cls === "MainLoop") return hasRuledMethod(idx, dispatch, grammar, "SceneTree")
  if (engineBaseMethods(idx, grammar, cls).length > 0) return true
  const mine = (owner: string): boolean => owner === cls || descends(grammar, cls, owner)
  const classOf = (call: string): string => call.slice(0, Math.max(0, call.lastIndexOf(".")))
  if (idx.paths.some(({ match }) => Object.keys(match.instances).some(mine) || Object.keys(match.static).some(mine))) return true
  if ([...Object.keys(idx.runtimeLoad?.match.calls ?? {}), ...Object.keys(idx.dataDecoding?.match.calls ?? {})].some((call) => mine(classOf(call)))) return true
  return [...dispatch.byName.values()].some((entries) => entries.some((d) => d.class !== "Object" && d.class !== "Node" && !d.class.startsWith("@") && d.kind !== "member" && mine(d.class)))
}

const ruledBelow = new WeakMap<PolicyIndex, Map<string, ReadonlyArray<string>>>()

/**
 * The engine classes that are `base` or descend from it (by the table's parents) and have a method a rule names for
 * them (hasRuledMethod): a script extending `base` given to an object of unknown class may run with self being one.
 */
export const ruledClassesBelow = (idx: PolicyIndex, dispatch: DispatchIndex, grammar: Grammar, base: string): ReadonlyArray<string> => {
  let perIdx = ruledBelow.get(idx)
  if (perIdx === undefined) ruledBelow.set(idx, (perIdx = new Map()))
  const key = `${grammar}:${base}`
  const cached = perIdx.get(key)
  if (cached !== undefined) return cached
  const found = Object.keys(byGrammar[grammar].parents).sort().filter((c) => descends(grammar, c, base) && hasRuledMethod(idx, dispatch, grammar, c))
  perIdx.set(key, found)
  return found
}
