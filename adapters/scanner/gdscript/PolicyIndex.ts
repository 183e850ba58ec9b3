import type { Severity } from "../../../domain/scan/Finding.ts"
import type { Dispatcher, Policy, PolicyPattern } from "../policy/Policy.ts"

// The policy rearranged for lookups by identifier, built once per policy object.

type MatchOf<K extends PolicyPattern["match"]["kind"]> = Extract<PolicyPattern["match"], { kind: K }>

export interface Rule<K extends PolicyPattern["match"]["kind"]> {
  readonly entry: PolicyPattern
  readonly match: MatchOf<K>
}

export interface PolicyIndex {
  readonly identifiers: ReadonlyMap<string, ReadonlyArray<PolicyPattern>>
  readonly members: ReadonlyMap<string, ReadonlyArray<Rule<"member">>>
  readonly assignments: ReadonlyMap<string, ReadonlyArray<PolicyPattern>>
  readonly setters: ReadonlyMap<string, ReadonlyArray<PolicyPattern>>
  readonly arguments: ReadonlyMap<string, ReadonlyArray<Rule<"argument">>>
  readonly paths: ReadonlyArray<Rule<"path">>
  /** By the function's own name (last segment of `Class.method`). */
  readonly dispatchers: ReadonlyMap<string, ReadonlyArray<Dispatcher>>
  /** Class names a variable can alias (`var os = OS`). */
  readonly receivers: ReadonlySet<string>
  /** Classes whose instances a variable can hold (`var f = File.new()`, `d: Directory`). */
  readonly instanceClasses: ReadonlySet<string>
  readonly constructors: ReadonlyMap<string, string>
}

const add = <V>(map: Map<string, Array<V>>, key: string, value: V): void => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

const cache = new WeakMap<Policy, PolicyIndex>()

export const indexPolicy = (policy: Policy): PolicyIndex => {
  const cached = cache.get(policy)
  if (cached !== undefined) return cached
  const identifiers = new Map<string, Array<PolicyPattern>>()
  const members = new Map<string, Array<Rule<"member">>>()
  const assignments = new Map<string, Array<PolicyPattern>>()
  const setters = new Map<string, Array<PolicyPattern>>()
  const args = new Map<string, Array<Rule<"argument">>>()
  const paths: Array<Rule<"path">> = []
  const receivers = new Set<string>()
  const instanceClasses = new Set<string>()
  const constructors = new Map<string, string>()
  for (const entry of policy.patterns) {
    const match = entry.match
    switch (match.kind) {
      case "identifier":
        for (const name of match.names) add(identifiers, name, entry)
        break
      case "member":
        for (const name of match.members) add(members, name, { entry, match })
        for (const r of match.receivers) receivers.add(r)
        break
      case "assignment":
        for (const name of match.properties) add(assignments, name, entry)
        for (const name of match.setters ?? []) add(setters, name, entry)
        break
      case "argument":
        for (const name of match.members) add(args, name, { entry, match })
        for (const r of match.receivers) if (r !== "*") receivers.add(r)
        break
      case "path":
        paths.push({ entry, match })
        for (const r of Object.keys(match.static)) receivers.add(r)
        for (const c of Object.keys(match.instances)) instanceClasses.add(c)
        for (const [call, cls] of Object.entries(match.constructors)) constructors.set(call, cls)
        break
    }
  }
  const dispatchers = new Map<string, Array<Dispatcher>>()
  for (const d of policy.dispatchers) {
    add(dispatchers, d.function.slice(d.function.lastIndexOf(".") + 1), d)
    if (d.function.includes(".")) receivers.add(d.function.slice(0, d.function.lastIndexOf(".")))
  }
  const index: PolicyIndex = { identifiers, members, assignments, setters, arguments: args, paths, dispatchers, receivers, instanceClasses, constructors }
  cache.set(policy, index)
  return index
}

export interface PatternHit {
  readonly entry: PolicyPattern
  readonly line: number
  readonly column: number
  readonly severity: Severity
  /** What was matched, as code: `OS.execute`, `call("execute")`, `FileAccess.open("/etc/passwd")`. */
  readonly matched: string
  /** Extra explanation when the hit is about what could not be proven (a non-literal argument). */
  readonly note?: string
}
