import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { indexPolicy } from "../gdscript/PolicyIndex.ts"
import type { Policy, PolicyPattern } from "../policy/Policy.ts"
import type { CapabilityRecord } from "./ScanState.ts"
import { SCRIPT_CLASSES } from "../gdscript/values.ts"
import type { UidResolution } from "../resource/uidCache.ts"
import { onePerFolder, packLookup, type UntidyPath, untidyFix, untidyWhy } from "../pack/packPath.ts"

// Findings about what a scene or resource makes the engine do without a line of code: load a resource
// from a path outside the pack (`[ext_resource path="user://evil.gd"]` is loaded, and its script run,
// when the scene is); write a property named by data (an animation track on `.:s:source_code`, scene
// connections and method tracks that reach a setter: dataDispatch.ts), judged like the same write in code;
// and build objects (`Object(_OS, …)`).

export interface DataPosition {
  readonly line: number
  readonly column: number
}

/**
 * Paths the engine resolves inside the pack: res://, Godot 4 resource ids, and paths relative to the
 * resource itself. Whether the pack holds them is packPath.ts's servedByPack.
 */
const loadsFromOutside = (path: string): boolean => {
  if (/^(res|uid):\/\//.test(path)) return false
  return /^([A-Za-z][A-Za-z0-9+.-]*:|[/\\~])/.test(path)
}

/**
 * How the paths of one resource are found: the pack's files, and where a relative path starts (a file: its
 * folder; null: the res:// root; "disk": the working folder, for paths the engine opens itself).
 */
export interface DataPaths {
  readonly has: (path: string) => boolean
  readonly from: string | null | "disk"
  /** The engine that reads the pack (packLookup). */
  readonly grammar: 3 | 4
  /**
   * The paths the engine may load the resource by (PackContents.loadPaths), when it resolves relative paths from
   * the resource's folder: from more than one folder, a relative path names a file that depends on how it was loaded.
   */
  readonly loadedBy?: ReadonlyArray<string>
}

/** Whether the pack serves a res:// or relative path to the engine (see DataPaths), else how it misses. */
const lookupOf = (path: string, paths: DataPaths): { readonly found: boolean; readonly untidy: UntidyPath | null } => {
  if (paths.from === "disk" && !path.startsWith("res://")) return { found: false, untidy: null }
  const lookup = packLookup(path, paths.from === "disk" ? null : paths.from, paths.grammar)
  return { found: lookup.untidy === null && paths.has(lookup.path), untidy: lookup.untidy }
}

/**
 * A path a resource loads, outside the pack: pack-hostile-path, pattern `<what> target`. With `paths`,
 * a res:// or relative path the pack lacks counts as outside too: the engine reads it from the disk; so does
 * one not in simplified form (`res://./x`, `res://a//x`, any `..`), which the engine looks up as written. A
 * null path is a value the engine converts to a path that the scanner cannot read as one (no export writes it).
 */
export const loadedPathFinding = (
  path: string | null,
  what: string,
  at: DataPosition | null,
  file: string,
  storedPath: string,
  paths?: DataPaths,
  uids?: (uid: string) => UidResolution,
): Finding | null => {
  if (path !== null && uids !== undefined && path.startsWith("uid://")) {
    const resolved = uids(path)
    if ("path" in resolved) return loadedPathFinding(resolved.path, `${what} ${path}`, at, file, storedPath, paths)
    return uidFinding(path, what, resolved.problem, at, file, storedPath)
  }
  const outside = path === null || loadsFromOutside(path)
  const folders = onePerFolder(paths?.loadedBy ?? [])
  if (path !== null && !outside && !/^(res|uid):\/\//.test(path) && paths !== undefined && paths.from !== null && paths.from !== "disk" && folders.length > 1) {
    const where = folders.map((f) => packLookup(path, f, paths.grammar).path).join(", ")
    return loadFinding(
      what,
      at,
      file,
      storedPath,
      `${file} is loaded by more than one path (${folders.join(", ")}, through a .remap, an .import or a remap of the settings), and the engine resolves its relative path ${JSON.stringify(path)} (${what}) from the folder of the path it was asked for (${where}): which file it loads depends on how the game names this one, and one may be read from the disk. Write the res:// path of the file meant and export again.`,
    )
  }
  const lookup = outside || paths === undefined || /^uid:\/\//.test(path) ? null : lookupOf(path, paths)
  if (!outside && (lookup === null || lookup.found)) return null
  return loadFinding(
    what,
    at,
    file,
    storedPath,
    path === null
        ? `${file} gives the engine a value that is not a string where it expects a path to load (${what}): it converts the value to a path and loads that, which no export writes. Give it a res:// path of a file in the pack (or remove it) and export again.`
        : lookup !== null && lookup.untidy !== null
          ? `${file} makes the engine load ${JSON.stringify(path)} (${what}) when it loads this resource: ${untidyWhy(lookup.untidy)}. ${untidyFix(lookup.untidy)} and export again.`
          : lookup !== null
            ? `${file} makes the engine load ${JSON.stringify(path)} (${what}) when it loads this resource, and the pack has no such file: the engine would read it from the disk (next to the game or in the working folder), content nobody reviewed. Include the file in the export (or remove the reference) and export again.`
            : `${file} makes the engine load ${JSON.stringify(path)} (${what}) when it loads this resource, from outside the pack: content nobody reviewed would run. Point it at a res:// file of the pack (or remove it) and export again.`,
  )
}

/** The pack-hostile-path finding of a path data makes the engine load (pattern `<what> target`). */
const loadFinding = (what: string, at: DataPosition | null, file: string, storedPath: string, message: string): Finding =>
  finding({ rule: RULE.hostilePath, file, storedPath, line: at?.line ?? null, column: at?.column ?? null, pattern: `${what.split(" ")[0]} target`, message })

/** A `uid://` path the engine resolves through a cache the scanner cannot read in the pack, or to nothing. */
export const uidFinding = (uid: string, what: string, problem: string, at: DataPosition | null, file: string, storedPath: string): Finding =>
  loadFinding(what, at, file, storedPath, `${file} makes the engine load ${JSON.stringify(uid)} (${what}): ${problem}. Export the pack again with a stock Godot 4 editor (it writes the cache), or use the res:// path of a file in the pack.`)

/** The policy's assignment patterns (`source_code`, `allow_object_decoding`) for the property a path writes last (`node:s:source_code`). */
const patternsForPath = (policy: Policy, path: string): ReadonlyArray<readonly [string, PolicyPattern]> => {
  const idx = indexPolicy(policy)
  const last = path.split(":").at(-1) ?? path
  // A track or tween giving an object a script (`X:img:script`): the object may be an engine one, a GDScript resource
  // whose set_source_code the script's calls on self then reach (a hundred-and-twenty-seventh red team's).
  const attaches = last === "script" && path.includes(":") && idx.escape !== null ? [["script", idx.escape] as const] : []
  return [...attaches, ...(idx.assignments.get(last) ?? []).map((entry) => [last, entry] as const)]
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

/** An object data makes the engine build (`Object(_OS, …)`), with its class as written. */
export interface DataObject {
  readonly className: string
  readonly at: DataPosition | null
}

/**
 * Objects text data makes the engine build as it reads it (VariantParser builds `Object(Class, …)` with
 * ClassDB, in scenes, resources, settings, `.remap`/`.import` files and whatever ConfigFile reads): a
 * dangerous engine object (`_OS`, `_File`) that code then finds in the data it reads (`get_value(…)`,
 * `get_meta(…)`) is a dangerous-object-escape, a class a pattern bans (GDNative, Expression, HTTPRequest) is
 * that pattern's finding. Scripts built this way (`Object(GDScript, "script/source": …)`) are read as scripts.
 */
export const builtObjectFindings = (policy: Policy, objects: ReadonlyArray<DataObject>, file: string, storedPath: string, capabilities: Array<CapabilityRecord>): ReadonlyArray<Finding> => {
  const idx = indexPolicy(policy)
  const out: Array<Finding> = []
  const report = (entry: PolicyPattern, o: DataObject, message: string): void => {
    if (entry.capability !== undefined) capabilities.push({ capability: entry.capability, file, line: o.at?.line ?? null, column: o.at?.column ?? null, api: `Object(${o.className}, …)`, verdict: entry.severity })
    out.push(finding({ rule: RULE.bannedApi, file, storedPath, line: o.at?.line ?? null, column: o.at?.column ?? null, pattern: entry.pattern, severity: entry.severity, message }))
  }
  for (const o of objects) {
    const guard = idx.guarded.get(o.className)
    if (guard !== undefined && !SCRIPT_CLASSES.has(guard) && idx.escape !== null) {
      report(idx.escape, o, `${file} makes the engine build an object of class ${o.className} (${guard}) when it reads this text: ${guard}'s methods are then reachable through data (a value read with get_value or get_meta), out of any reviewed code. ${idx.escape.rationale} Remove the Object(${o.className}, …) value; see ${idx.escape.docs} (policy ${idx.escape.id}).`)
    }
    for (const entry of idx.identifiers.get(o.className) ?? []) {
      report(entry, o, `${file} makes the engine build an object of class ${o.className} when it reads this text: ${entry.rationale} ${entry.fix ?? `Remove the Object(${o.className}, …) value`}; see ${entry.docs} (policy ${entry.id}).`)
    }
  }
  return out
}
