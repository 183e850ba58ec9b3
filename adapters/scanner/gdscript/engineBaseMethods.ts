import { fileWritesOfClass } from "./engineFileWrites.ts"
import { engineClassInherits, engineDescends } from "./engineMethods.ts"
import type { PolicyIndex } from "./PolicyIndex.ts"
import type { Grammar } from "./tokenizer.ts"

// The methods of one engine class that a rule names for that class: its file writes, the policy's path,
// member, argument, runtime-load, data-decoding and sensitive calls written `Class.method` (its
// dispatches by name are the dispatch table's, judged apart). A call on the creator's own object by a name that is not constant may be any
// of them when the pack's class extends that engine class (`extends ConfigFile` then `call(m, p)` may be
// `save(p)`). Rules that name no class (`*.get_var`) are not here: they are judged on every receiver.

const cache = new WeakMap<PolicyIndex, Map<string, ReadonlyArray<string>>>()

const ofClass = (calls: Iterable<string>, cls: string): Array<string> => [...calls].filter((c) => c.startsWith(`${cls}.`)).map((c) => c.slice(cls.length + 1))

/** The classes declaring the setters the policy judges on any receiver, where engine-methods.json (rule-named methods only) lists none. */
const SETTER_OWNERS: Readonly<Record<string, string>> = { set_source_code: "Script", _set_bundled_scene: "PackedScene", set_allow_object_decoding: "PacketPeer", set_path: "Resource", take_over_path: "Resource" }

const hasSetter = (grammar: Grammar, cls: string, name: string): boolean => {
  const owner = SETTER_OWNERS[name]
  return owner !== undefined ? engineDescends(grammar, cls, owner) : engineClassInherits(grammar, cls, name)
}

export const engineBaseMethods = (idx: PolicyIndex, grammar: Grammar, cls: string): ReadonlyArray<string> => {
  let byClass = cache.get(idx)
  if (byClass === undefined) cache.set(idx, (byClass = new Map()))
  const key = `${grammar}:${cls}`
  const cached = byClass.get(key)
  if (cached !== undefined) return cached
  const names = new Set<string>(fileWritesOfClass(grammar, cls))
  for (const { match } of idx.paths) for (const table of [match.instances[cls], match.static[cls]]) for (const m of Object.keys(table ?? {})) names.add(m)
  for (const [m, rules] of idx.members) if (rules.some((r) => r.match.receivers.includes(cls))) names.add(m)
  for (const [m, rules] of idx.arguments) if (rules.some((r) => r.match.receivers.includes(cls))) names.add(m)
  for (const m of ofClass(Object.keys(idx.runtimeLoad?.match.calls ?? {}), cls)) names.add(m)
  for (const m of ofClass([...Object.keys(idx.dataDecoding?.match.calls ?? {}), ...Object.keys(idx.dataDecoding?.match.texts ?? {})], cls)) names.add(m)
  for (const m of ofClass(idx.sensitive.keys(), cls)) names.add(m)
  // Rules for every receiver (`*.change_scene`, `get_var(true)` on any object): the ones the class has (a script extending
  // SceneTree whose `call(n, p)` may be `change_scene(p)`: a hundred-and-twenty-fourth red team's).
  const anyReceiver = [
    ...ofClass([...Object.keys(idx.runtimeLoad?.match.calls ?? {}), ...Object.keys(idx.dataDecoding?.match.calls ?? {})], "*"),
    ...[...idx.members, ...idx.arguments].flatMap(([m, rules]) => (rules.some((r) => r.match.receivers.includes("*")) ? [m] : [])),
  ]
  for (const m of anyReceiver) if (engineClassInherits(grammar, cls, m)) names.add(m)
  // Setters judged on any receiver that the class has beyond every Resource's (GDScript's set_source_code; not set_path).
  for (const m of idx.setters.keys()) if (hasSetter(grammar, cls, m) && !hasSetter(grammar, "Resource", m)) names.add(m)
  const list = [...names].sort()
  byClass.set(key, list)
  return list
}
