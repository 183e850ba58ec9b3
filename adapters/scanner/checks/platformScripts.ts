import { hostilePathReason } from "../pack/packPath.ts"

// The platform provides the files under the policy's reserved folders (sdk/; core/, server/ and client/ of the starter
// template), and the export leaves them out (service spec, "Export requirements": exclude_filter). The editor still
// registers their classes, EngineGame at res://sdk/engine_game.gd among them, in the list the export keeps (Godot 3's
// `_global_script_classes`, Godot 4's class cache): such a registration names the platform's script, not the pack's.

/** The reserved folder (lower-cased) a res:// path lies in, compared without case as the reserved-path check does; null when none. */
export const reservedFolderOf = (path: string, reservedPaths: ReadonlyArray<string>): string | null => {
  const bare = (path.startsWith("res://") ? path.slice("res://".length) : path).toLowerCase()
  return reservedPaths.map((r) => r.toLowerCase()).find((r) => bare.startsWith(r)) ?? null
}

/**
 * Whether a global class registration's path names the platform's script: a res:// path as the editor writes it
 * (no `..`, `.` or empty segment, backslash, second scheme or control character, so no engine reads it as
 * another path: packPath.ts), in a reserved folder, that the pack lacks (`inPack`: the file, its `.remap` or
 * `.import`). A uid:// is resolved through the pack's own uid cache, so the pack, not the platform, says what it
 * names; a file the pack holds there is the pack's (and a reserved-path finding).
 */
export const isPlatformScript = (path: string, reservedPaths: ReadonlyArray<string>, inPack: (path: string) => boolean): boolean =>
  path.startsWith("res://") && hostilePathReason(path) === null && reservedFolderOf(path, reservedPaths) !== null && !inPack(path)
