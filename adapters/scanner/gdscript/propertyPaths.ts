import { nodePathText } from "../resource/nodePath.ts"
import type { Val } from "./values.ts"

// Property paths the engine follows from object to object (NodePath::get_as_property_path, then
// Object::set_indexed: one object per subname, the last one written, every one before it written back):
// Object.set_indexed, an animation value track, a Tween's property. A path reaches past its first
// segment (a node, or the receiver's own property) into the objects its members hold, so `"c:property"`
// given to the holder of `c` writes `property` of whatever `c` is: a member of any class of the pack.

/**
 * Engine methods whose NodePath parameter is a property path that is written, with its position, in
 * either engine (the class reference's NodePath parameters of Object, Animation, Tween, SceneTreeTween and
 * SceneReplicationConfig; `get_indexed` and the `initial_val`/`target_property` paths a tween reads write
 * nothing).
 */
export const PATH_ARGUMENTS: ReadonlyMap<string, ReadonlyArray<number>> = new Map([
  ["set_indexed", [0]],
  ["track_set_path", [1]],
  ["interpolate_property", [1]],
  ["follow_property", [1]],
  ["targeting_property", [1]],
  ["tween_property", [1]],
  ["add_property", [0]],
])

/**
 * The fewest arguments each of PATH_ARGUMENTS' methods takes (the engine refuses a call with fewer): the index and the
 * path of a track, an object, a path and the values of a tween; SceneReplicationConfig's `add_property` (4.x) the path alone.
 */
export const PATH_ARITY: ReadonlyMap<string, number> = new Map([
  ["set_indexed", 2],
  ["track_set_path", 2],
  ["interpolate_property", 4],
  ["follow_property", 4],
  ["targeting_property", 4],
  ["tween_property", 3],
  ["add_property", 1],
])

/** Setters whose value is written to the property their first argument names (an Animation's `tracks/N/path` among them). */
export const VALUE_SETTERS: ReadonlySet<string> = new Set(["set", "set_deferred", "set_indexed", "set_deferred_thread_group", "set_thread_safe"])

/**
 * The objects and property a property path walks, as the engine reads it: NodePath(String) (empty names dropped, a
 * `:` at the end ignored, an empty subname elsewhere making the whole path empty), then get_as_property_path (the
 * names before the first `:`, joined with `/`, become the first subname). So `":script"` and `"script:"` are
 * `script` itself; an empty result writes nothing.
 */
export const propertySegments = (path: string): ReadonlyArray<string> => {
  const text = nodePathText(path)
  const colon = text.indexOf(":")
  const names = (colon === -1 ? text : text.slice(0, colon)).split("/").filter((n) => n !== "")
  const subnames = colon === -1 ? [] : text.slice(colon + 1).split(":")
  return names.length > 0 ? [names.join("/"), ...subnames] : subnames
}

/** The members a path may write past its first segment: its segments after the first `:` (spaces trimmed, the looser match). */
export const throughNames = (path: string): ReadonlyArray<string> =>
  path
    .split(":")
    .slice(1)
    .map((p) => p.trim())
    .filter((p) => p !== "")

const TRACK_PATH = /^tracks\/\d+\/path$/

/** Whether a property name may be an Animation's track path (`tracks/0/path`): then the value written is a property path. */
export const mayBeTrackPath = (v: Val): boolean => {
  if (v.t === "str") return v.values.some((s) => TRACK_PATH.test(s))
  if (v.t !== "unknown") return false
  const prefix = v.prefix ?? ""
  return "tracks/".startsWith(prefix) || prefix.startsWith("tracks/")
}

/** Whether a value the engine takes as a property path may write `name` past its first segment: a string that does, or one not pinned down. */
export const mayReachThrough = (v: Val, name: string): boolean => {
  if (v.t === "str") return v.values.some((s) => throughNames(s).includes(name))
  if (v.t === "inst") return v.cls === "NodePath" || v.cls === "String" || v.cls === "StringName"
  return v.t === "unknown"
}
