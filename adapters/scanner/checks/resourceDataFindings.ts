import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { indexPolicy } from "../gdscript/PolicyIndex.ts"
import type { Policy, PolicyPattern } from "../policy/Policy.ts"
import type { CapabilityRecord } from "./ScanState.ts"

// Findings about what a scene or resource makes the engine do without a line of code: load a resource
// from a path outside the pack (`[ext_resource path="user://evil.gd"]` is loaded, and its script run,
// when the scene is), and write a property named by data (an animation track on `.:s:source_code`, a
// connection to `set_indexed` with the property in its binds), judged like the same write in code.

export interface DataPosition {
  readonly line: number
  readonly column: number
}

/**
 * Paths the engine resolves inside the pack: res://, Godot 4 resource ids, and paths relative to the
 * resource itself (localize_path keeps those under res://, dropping `..` above its root).
 */
const loadsFromOutside = (path: string): boolean => {
  if (/^(res|uid):\/\//.test(path)) return false
  return /^([A-Za-z][A-Za-z0-9+.-]*:|[/\\~])/.test(path)
}

/** A path a resource loads, outside the pack: pack-hostile-path, pattern `<what> target`. */
export const loadedPathFinding = (path: string, what: string, at: DataPosition | null, file: string, storedPath: string): Finding | null =>
  loadsFromOutside(path)
    ? finding({
        rule: RULE.hostilePath,
        file,
        storedPath,
        line: at?.line ?? null,
        column: at?.column ?? null,
        pattern: `${what.split(" ")[0]} target`,
        message: `${file} makes the engine load ${JSON.stringify(path)} (${what}) when it loads this resource, from outside the pack: content nobody reviewed would run. Point it at a res:// file of the pack (or remove it) and export again.`,
      })
    : null

/** The policy's assignment patterns (`source_code`, `allow_object_decoding`) for the property a path writes last (`node:s:source_code`). */
const patternsForPath = (policy: Policy, path: string): ReadonlyArray<readonly [string, PolicyPattern]> => {
  const last = path.split(":").at(-1) ?? path
  return (indexPolicy(policy).assignments.get(last) ?? []).map((entry) => [last, entry] as const)
}

/** A property written by scene or resource data whose last component is a dangerous property: banned-api at its line. */
export const propertyWriteFindings = (
  policy: Policy,
  write: { readonly path: string; readonly how: string; readonly at: DataPosition | null },
  file: string,
  storedPath: string,
  capabilities: Array<CapabilityRecord>,
): ReadonlyArray<Finding> =>
  patternsForPath(policy, write.path).map(([property, entry]) => {
    if (entry.capability !== undefined) capabilities.push({ capability: entry.capability, file, line: write.at?.line ?? null, column: write.at?.column ?? null, api: `${write.how}: ${write.path}`, verdict: entry.severity })
    return finding({
      rule: RULE.bannedApi,
      file,
      storedPath,
      line: write.at?.line ?? null,
      column: write.at?.column ?? null,
      pattern: entry.pattern,
      severity: entry.severity,
      message: `${write.how} writes ${JSON.stringify(write.path)}, the property ${property} of the object the path names: ${entry.rationale} ${entry.fix ?? "Remove the write"}; see ${entry.docs} (policy ${entry.id}).`,
    })
  })

/** Object methods that write a property named by their first argument. */
const SETTERS: ReadonlySet<string> = new Set(["set", "set_deferred", "set_indexed"])
/** Object methods that call a method named by their first argument. */
const CALLERS: ReadonlySet<string> = new Set(["call", "call_deferred", "callv"])

/**
 * The property paths a scene connection may write: a connection to `set_indexed` (or `set`,
 * `set_deferred`, or `call` of one of them) passes the signal's arguments and then its binds, so any
 * bound string may be the property path.
 */
export const connectionWrites = (method: string, binds: ReadonlyArray<string>): ReadonlyArray<string> => {
  const first = binds[0]
  return SETTERS.has(method) || (CALLERS.has(method) && first !== undefined && SETTERS.has(first)) ? binds : []
}
