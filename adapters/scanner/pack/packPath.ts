// Directory paths: one normal form for every check, and the ways a hostile path can misbehave.

const RES = "res://"

/** `res://` + the path without scheme, whatever form the exporter used (4.4+ stores bare paths). */
export const normalisePackPath = (raw: string): string => RES + (raw.startsWith(RES) ? raw.slice(RES.length) : raw)

/**
 * Whether the engine that reads a pack of this format finds an entry stored without `res://` under its
 * res:// path. The engine keys its files by the MD5 of the path (core/io/file_access_pack.cpp,
 * PackedData::add_path and try_open_path): Godot 3 (formats 0 and 1) and Godot 4.0-4.3 hash the stored
 * path as it is and look up the full `res://…` path, so a bare entry is never found and the engine reads
 * that res:// path from the disk instead; Godot 4.4 (still format 2, whose exporter writes bare paths)
 * trims `res://` on both sides, as does every engine of formats 3 and up. A format-2 pack made before 4.4
 * can run on 4.0-4.3, so it counts as not trimmed.
 */
export const engineTrimsScheme = (format: number, engineVersion: string): boolean => {
  if (format >= 3) return true
  if (format < 2) return false
  const [major = 0, minor = 0] = engineVersion.split(".").map(Number)
  return major > 4 || (major === 4 && minor >= 4)
}

/** Why the engine never finds a stored path under `res://` (see engineTrimsScheme), or null when it does. */
export const unreachableReason = (raw: string, format: number, engineVersion: string): string | null =>
  raw.startsWith(RES) || engineTrimsScheme(format, engineVersion)
    ? null
    : `no "res://" prefix: the engine of this pack (format ${format}, ${engineVersion}) looks files up by their full res:// path, never finds this one and reads ${normalisePackPath(raw)} from the player's disk instead (a file the game can plant there)`

/** Why a stored path is unsafe to extract or ambiguous to review, or null when it is fine. */
export const hostilePathReason = (raw: string): string | null => {
  const bare = raw.startsWith(RES) ? raw.slice(RES.length) : raw
  if (bare.length === 0) return "an empty path"
  if (bare.includes("\0")) return "a NUL byte inside the name"
  if (bare.includes("\\")) return "a backslash (Godot paths use '/')"
  if (/[\u0000-\u001f\u007f]/.test(bare)) return "a control character"
  if (bare.startsWith("/")) return "an absolute path"
  if (/^[A-Za-z]:/.test(bare)) return "a drive-letter path"
  if (bare.includes("://")) return "a second scheme inside the path"
  const parts = bare.split("/")
  if (parts.includes("..")) return "a '..' segment that climbs out of res://"
  if (parts.some((p, i) => p === "." || (p === "" && i < parts.length - 1))) return "an empty or '.' segment"
  if (bare.endsWith("/")) return "a trailing '/'"
  return null
}

/**
 * The extension the engine sees, lower-cased with its dot (`.gd`), or "" when it sees none. Godot's
 * String::get_extension (core/ustring.cpp in 3.x, core/string/ustring.cpp in 4.x) takes what follows the last
 * '.', unless a '/' or '\\' comes after it: a name that is only an extension (`res://a/.gd`) is a script, and
 * the loaders compare extensions without case.
 */
export const extensionOf = (path: string): string => {
  const dot = path.lastIndexOf(".")
  if (dot < 0 || dot < Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) || dot === path.length - 1) return ""
  return path.slice(dot).toLowerCase()
}

/** Extensions the engine loads as a GDScript (source, compiled, encrypted). */
export const SCRIPT_EXTENSIONS: ReadonlySet<string> = new Set([".gd", ".gdc", ".gde"])
