import type { PackContents } from "../PackContents.ts"
import { packLookup } from "../pack/packPath.ts"
import { builtInScriptKey, type ScanState } from "./ScanState.ts"

/** How many instanced or inherited scenes are followed to a root's script. */
export const MAX_SCENE_CHAIN = 32

/**
 * The script a scene's root node runs: found in the scene, or else in the scene its root instances or inherits, and so
 * on (a seventy-fourth red team's autoload scene instancing one with another script). `key` is a built-in script's key
 * (under the stored scene's path) or the script's path as the scene names it, resolved against the path the scene was
 * asked for; `scene` is the stored scene's path. `Unread` names a scene of the chain the scanner could not read or the pack lacks; `None` a root without a
 * script, one setting its script to what is no script the scanner knows (`script = null`, a value it cannot read), or
 * a chain longer than MAX_SCENE_CHAIN.
 */
export type SceneRoot =
  | { readonly _tag: "Script"; readonly key: string; readonly scene: string }
  | { readonly _tag: "Unread"; readonly scene: string }
  | { readonly _tag: "None" }

export const sceneRootScript = (state: ScanState, contents: PackContents, path: string): SceneRoot => {
  let scene = path
  for (let depth = 0; depth < MAX_SCENE_CHAIN; depth++) {
    const loaded = contents.loadedPath(scene)
    const known = state.scenes.get(loaded) ?? state.scenes.get(scene)
    if (known === undefined || known === null) return { _tag: "Unread", scene }
    const root = known.rootScript
    // A relative path is the engine's from the path the scene was asked for, not from the file a `.remap` sends it to
    // (ResourceFormatLoaderText takes the original path as its local path: an eighty-ninth red team's `towers.gd` next
    // to the autoload's path, where the remapped scene's own folder held a decoy of that name).
    if (root !== null) {
      const key = root._tag === "BuiltIn" ? builtInScriptKey(loaded, root.subResource) : packLookup(root.path, scene, contents.grammar).path
      return { _tag: "Script", key, scene: loaded }
    }
    if (known.rootScriptSet || known.baseScene === null) return { _tag: "None" }
    scene = packLookup(known.baseScene, scene, contents.grammar).path
  }
  return { _tag: "None" }
}
