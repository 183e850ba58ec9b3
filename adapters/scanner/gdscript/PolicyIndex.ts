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
  /** Dangerous engine objects by every spelling (`_OS` → `OS`); empty when the policy has no `guarded` pattern. */
  readonly guarded: ReadonlyMap<string, string>
  readonly escape: PolicyPattern | null
  readonly dynamicDispatch: PolicyPattern | null
  readonly runtimeLoad: Rule<"runtime-load"> | null
  readonly dataDecoding: Rule<"data-decoding"> | null
  /** Checks on a script's or resource's text (`trojan-source`, `strict-utf8`), by check. */
  readonly text: ReadonlyMap<MatchOf<"text">["check"], PolicyPattern>
  readonly classNameShadow: PolicyPattern | null
  readonly engineInternal: PolicyPattern | null
  /** `Class.method` → capability, for allowed APIs listed in the summary. */
  readonly sensitive: ReadonlyMap<string, string>
  /** `Class.method` → index of the mode argument of file opens that may write. */
  readonly writeModes: ReadonlyMap<string, number>
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
  const guarded = new Map<string, string>()
  let escape: PolicyPattern | null = null
  let dynamicDispatch: PolicyPattern | null = null
  let runtimeLoad: Rule<"runtime-load"> | null = null
  let dataDecoding: Rule<"data-decoding"> | null = null
  const text = new Map<MatchOf<"text">["check"], PolicyPattern>()
  let classNameShadow: PolicyPattern | null = null
  let engineInternal: PolicyPattern | null = null
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
      case "guarded":
        escape = entry
        for (const name of match.names) guarded.set(name, name)
        for (const [alias, name] of Object.entries(match.aliases ?? {})) guarded.set(alias, name)
        break
      case "dynamic-dispatch":
        dynamicDispatch = entry
        break
      case "runtime-load":
        runtimeLoad = { entry, match }
        break
      case "data-decoding":
        dataDecoding = { entry, match }
        break
      case "text":
        text.set(match.check, entry)
        break
      case "class-name-shadow":
        classNameShadow = entry
        break
      case "engine-internal":
        engineInternal = entry
        break
    }
  }
  // The receivers of every other pattern are dangerous objects too, once the policy guards any.
  if (escape !== null) for (const r of receivers) if (!guarded.has(r)) guarded.set(r, r)
  const sensitive = new Map<string, string>()
  const writeModes = new Map<string, number>()
  for (const use of policy.sensitive ?? []) {
    for (const call of use.calls) sensitive.set(call, use.capability)
    for (const [call, index] of Object.entries(use.writeModes ?? {})) {
      writeModes.set(call, index)
      sensitive.set(call, use.capability)
    }
  }
  const dispatchers = new Map<string, Array<Dispatcher>>()
  for (const d of policy.dispatchers) {
    add(dispatchers, d.function.slice(d.function.lastIndexOf(".") + 1), d)
    if (d.function.includes(".")) receivers.add(d.function.slice(0, d.function.lastIndexOf(".")))
  }
  const index: PolicyIndex = {
    identifiers,
    members,
    assignments,
    setters,
    arguments: args,
    paths,
    dispatchers,
    receivers,
    instanceClasses,
    constructors,
    guarded,
    escape,
    dynamicDispatch,
    runtimeLoad,
    dataDecoding,
    text,
    classNameShadow,
    engineInternal,
    sensitive,
    writeModes,
  }
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
  /** The exact change that removes the finding, when it is more than removing the call. */
  readonly fix?: string
  /**
   * A load whose path is not pinned down: an error once the pack may write a file a load reads as code
   * (checks/unpinnedLoads.ts); `"numbered"`, a res:// path whose only part built at run time is numbers: an error once
   * such a write may climb out of user:// (fileRules.ts numberedPath).
   */
  readonly unpinnedLoad?: true | "numbered"
}
