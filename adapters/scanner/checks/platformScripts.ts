import type { PlatformClass } from "../policy/Policy.ts"

// The platform provides the files under the policy's reserved folders (sdk/; core/, server/ and client/ of the starter
// template), and the export leaves them out (service spec, "Export requirements": exclude_filter). The editor still
// registers their classes, EngineGame at res://sdk/engine_game.gd among them, in the list the export keeps (Godot 3's
// `_global_script_classes`, Godot 4's class cache). Only the registrations the policy lists (`platformClasses`) name
// the platform's script: any other class at a reserved path the pack lacks loads whatever file the player's disk has
// there (the working folder, which a game can write), as a class at any other path the pack lacks does.

/** The reserved folder (lower-cased) a res:// path lies in, compared without case as the reserved-path check does; null when none. */
export const reservedFolderOf = (path: string, reservedPaths: ReadonlyArray<string>): string | null => {
  const bare = (path.startsWith("res://") ? path.slice("res://".length) : path).toLowerCase()
  return reservedPaths.map((r) => r.toLowerCase()).find((r) => bare.startsWith(r)) ?? null
}

/**
 * Whether a global class registration is the platform's own: the class name and path are exactly those of an entry of
 * the policy's `platformClasses` (so the path is the platform's file as written, and no `..`, case or `uid://`
 * variant of it), and the pack lacks that path (`inPack`: the file, its `.remap` or `.import`; a file the pack holds
 * there is the pack's, and a reserved-path finding).
 */
export const isPlatformScript = (name: string | null, path: string, platformClasses: ReadonlyArray<PlatformClass>, inPack: (path: string) => boolean): boolean =>
  platformClasses.some((c) => c.name === name && c.path === path) && !inPack(path)
