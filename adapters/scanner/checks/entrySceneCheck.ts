import type { Manifest } from "../../../domain/manifest/Manifest.ts"
import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import type { PackContents } from "../PackContents.ts"
import { extendsLookup, extensionOf, normalisePackPath } from "../pack/packPath.ts"
import { decodeAsEngine } from "../text/godotUtf8.ts"
import { sceneRootScript } from "./sceneRoot.ts"
import type { KnownScript, ScanState } from "./ScanState.ts"

/** The base class every entry scene's root script must extend (spec §1, check 2). */
export const ENGINE_GAME = "EngineGame"
const MAX_CHAIN = 32

/** Cached `.godot/global_script_class_cache.cfg` (Godot 4): class_name → script path, also for compiled scripts. */
const readClassCache = async (contents: PackContents): Promise<ReadonlyMap<string, string>> => {
  const entry = contents.get("res://.godot/global_script_class_cache.cfg")
  const map = new Map<string, string>()
  if (entry === undefined || !entry.readable || entry.size > 4 * 1024 * 1024) return map
  // Godot 4 writes and reads it (ConfigFile: its strings decoded as godotUtf8.ts decodes them).
  const text = decodeAsEngine(await contents.bytesOf(entry), 4)
  for (const m of text.matchAll(/\{[^{}]*?"class":\s*&?"([^"]+)"[^{}]*?"path":\s*"([^"]+)"[^{}]*?\}/g)) {
    if (m[1] !== undefined && m[2] !== undefined && !map.has(m[1])) map.set(m[1], normalisePackPath(m[2]))
  }
  return map
}

/** Check 2: the entry scene exists and its root node's script extends EngineGame, directly or through a chain. */
export const checkEntryScene = async (contents: PackContents, state: ScanState, manifest: Manifest): Promise<ReadonlyArray<Finding>> => {
  const scenePath = normalisePackPath(manifest.entry_scene)
  const resolved = contents.resolve(scenePath)
  if ("missing" in resolved) {
    return [
      finding({
        rule: RULE.entrySceneMissing,
        file: scenePath,
        pattern: "entry_scene",
        message:
          resolved.missing === scenePath
            ? `manifest.json names the entry scene ${scenePath}, but the pack has neither that file nor ${scenePath}.remap. Fix "entry_scene" or include the scene in the export.`
            : `${scenePath}.remap points at ${resolved.missing}, which is not in the pack. Export the pack again.`,
      }),
    ]
  }
  const classCache = await readClassCache(contents)
  const fail = (rule: typeof RULE.entrySceneNotEngineGame | typeof RULE.entrySceneUnverifiable, message: string, where?: KnownScript, line?: number, column?: number): ReadonlyArray<Finding> => {
    const position = where !== undefined && line !== undefined && column !== undefined ? (where.mapPosition?.(line, column) ?? { line, column }) : null
    return [
      finding({
        rule,
        file: where?.file ?? scenePath,
        storedPath: where?.storedPath ?? (resolved.viaRemap ? resolved.entry.path : undefined),
        embeddedIn: where?.embeddedIn,
        line: position?.line ?? null,
        column: position?.column ?? null,
        pattern: ENGINE_GAME,
        message,
      }),
    ]
  }

  const root = sceneRootScript(state, contents, scenePath)
  if (root._tag === "Unread") {
    return fail(RULE.entrySceneUnverifiable, `The entry scene ${root.scene} could not be read, so its root script cannot be checked (see the resource-unreadable finding).`)
  }
  if (root._tag === "None") {
    return fail(RULE.entrySceneNotEngineGame, `The root node of the entry scene ${scenePath} has no script. Attach a script that starts with "extends ${ENGINE_GAME}".`)
  }

  const chain: Array<string> = []
  let key = root.key
  for (let depth = 0; depth < MAX_CHAIN; depth++) {
    if (chain.includes(key)) return fail(RULE.entrySceneNotEngineGame, `The root script's extends chain loops (${[...chain, key].join(" → ")}).`)
    chain.push(key)
    // What the engine loads at that path: a `.remap` target wins over the file of the same name.
    const script = state.scripts.get(contents.loadedPath(key)) ?? (contents.remapTargetOf(key) === undefined ? state.scripts.get(key) : undefined)
    if (script === undefined) {
      const target = contents.remapTargetOf(key)
      const ext = extensionOf(target ?? key)
      if (ext === ".gdc" || ext === ".gde") {
        return fail(RULE.entrySceneUnverifiable, `${key} is exported compiled (${target}), so it cannot be shown to extend ${ENGINE_GAME}. Export with script_export_mode=0 (see the compiled-script finding).`)
      }
      return fail(RULE.entrySceneNotEngineGame, `The entry scene's root script ${key} is not in the pack as readable GDScript (chain: ${chain.join(" → ")}).`)
    }
    const target = script.header.extendsTarget
    if (target === null) {
      return fail(RULE.entrySceneNotEngineGame, `${describe(key)} has no "extends" line, so it does not extend ${ENGINE_GAME}. Make the entry scene's root script start with "extends ${ENGINE_GAME}".`, script)
    }
    if (target._tag === "Class") {
      if (target.name === ENGINE_GAME) return []
      const next = state.classNames.get(target.name) ?? classCache.get(target.name)
      if (next === undefined) {
        return fail(
          RULE.entrySceneNotEngineGame,
          `${describe(key)} extends ${target.name}, which is not ${ENGINE_GAME} and is not a class_name declared by a script in the pack (chain: ${chain.map(describe).join(" → ")}). The entry scene's root script must extend ${ENGINE_GAME}.`,
          script,
          target.line,
          target.column,
        )
      }
      key = next
    } else {
      key = extendsLookup(target.path, script.embeddedIn?.resource ?? key, contents.grammar).path
    }
  }
  return fail(RULE.entrySceneNotEngineGame, `The root script's extends chain is longer than ${MAX_CHAIN} scripts.`)
}

const describe = (key: string): string => (key.includes("::") ? `built-in script ${key.split("::")[1]} of ${key.split("::")[0]}` : key)
