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

/**
 * Why the engine never reads an entry whose bytes start at the pack file's first byte, or null: it takes offset 0 for a
 * file a later pack erased (PackedData::try_open_path, "was erased") and reads the path from the player's disk instead
 * (a ninety-fifth red team's empty `res://p.gd` at offset 0, then `load("res://p.gd")` of a script the game wrote there).
 * No exporter writes it: the header is there.
 */
export const erasedReason = (absoluteOffset: number, raw: string): string | null =>
  absoluteOffset === 0
    ? `offset 0, which the engine takes for an erased file: it never reads these bytes and reads ${normalisePackPath(raw)} from the player's disk instead (a file the game can plant there)`
    : null

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

/**
 * The simplified form of a res:// path (String::simplify_path, core/ustring.cpp in 3.x): `\` read as `/`,
 * empty and `.` segments dropped, each `..` taking the segment before it away (one with none before it is
 * dropped). Pack entries are named in this form; `preload` and a relative `extends` simplify their path.
 */
export const simplifyResPath = (path: string): string => {
  const out: Array<string> = []
  for (const part of (path.startsWith(RES) ? path.slice(RES.length) : path).split(/[/\\]/)) {
    if (part === "" || part === ".") continue
    if (part === "..") out.pop()
    else out.push(part)
  }
  return RES + out.join("/")
}

/**
 * The path the engine looks up in the pack for a path that data or code names, as the engine builds it
 * without simplifying: a res:// path as written, a relative one joined to the folder of `from` (String::plus_file
 * of get_base_dir; `from` null: the res:// root, as ResourceLoader::load and localize_path take a bare path).
 */
export const engineLookupPath = (path: string, from: string | null): string => {
  if (path.startsWith(RES)) return path
  const folder = from === null ? RES : baseDir(from)
  return folder.endsWith("/") || path.startsWith("/") ? folder + path : `${folder}/${path}`
}

/** String::get_base_dir of a res:// path: its folder, `res://` for a file at the root. */
export const baseDir = (path: string): string => {
  const cut = path.lastIndexOf("/")
  return cut < RES.length ? RES : path.slice(0, cut)
}

/** One path per folder of `paths` (the first of each): the places a relative path can be resolved from. */
export const onePerFolder = (paths: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  return paths.filter((p) => {
    const folder = baseDir(p)
    if (seen.has(folder)) return false
    seen.add(folder)
    return true
  })
}

/** A res:// path the engine never finds in a pack because it is not in simplified form. */
export interface UntidyPath {
  /** The path as the engine looks it up. */
  readonly path: string
  /** Its simplified form: how the pack names the file the creator meant. */
  readonly tidy: string
  /** A `..` with no folder before it: the path leaves the game's folder on the disk. */
  readonly climbsOut: boolean
}

/** Whether a res:// path is in simplified form, else how it is not (`..` anywhere counts, as a path that climbs). */
export const untidyPath = (path: string): UntidyPath | null => {
  if (!path.startsWith(RES)) return null
  const tidy = simplifyResPath(path)
  const parts = path.slice(RES.length).split(/[/\\]/)
  if (tidy === path && !parts.includes("..")) return null
  let depth = 0
  let climbsOut = false
  for (const part of parts) {
    if (part === "..") climbsOut ||= --depth < 0
    else if (part !== "" && part !== ".") depth++
  }
  return { path, tidy, climbsOut }
}

/** The path the engine looks up in the pack for a path named by data or code, and why it misses the pack's file when it is not in simplified form. */
export interface PackLookup {
  readonly path: string
  readonly untidy: UntidyPath | null
}

/**
 * How the engine that reads the pack (`grammar`: 3 or 4) looks up a path named by data or code (relative ones
 * joined to `from` as engineLookupPath does). It finds a pack entry by the MD5 of the exact string
 * (PackedData::try_open_path, core/io/file_access_pack.h of 3.x), and Godot 3.2 leaves the path as written in an
 * exported game (ProjectSettings::localize_path returns it unchanged while resource_path is empty): `res://./x`,
 * `res://a//x` and `res://a/../x` miss the entry `res://x`, and FileAccess opens the path with `res://` cut off,
 * in the working folder. Godot 4 simplifies what it loads (localize_path always; try_open_path from 4.2,
 * core/io/file_access_pack.h), which keeps a leading `..`: only a path that climbs above res:// misses there.
 */
export const packLookup = (path: string, from: string | null, grammar: 3 | 4): PackLookup => {
  const lookup = engineLookupPath(path, from)
  const untidy = untidyPath(lookup)
  if (untidy !== null && grammar === 4 && !untidy.climbsOut) return { path: untidy.tidy, untidy: null }
  return { path: lookup, untidy }
}

/**
 * How `extends "…"` is looked up: a res:// path as packLookup does, a relative one joined to the folder of `from`
 * and simplified (GDScriptParser::_parse_extends simplifies only the relative form).
 */
export const extendsLookup = (path: string, from: string | null, grammar: 3 | 4): PackLookup =>
  path.startsWith(RES) ? packLookup(path, from, grammar) : { path: simplifyResPath(engineLookupPath(path, from)), untidy: null }

/** Whether the engine loads `path` (named by data or code, relative to `from`) from the pack, given the pack's files. */
export const servedByPack = (has: (path: string) => boolean, path: string, from: string | null, grammar: 3 | 4): boolean => {
  const lookup = packLookup(path, from, grammar)
  return lookup.untidy === null && has(lookup.path)
}

/** What happens to an unsimplified path, for a finding's message. */
export const untidyWhy = (u: UntidyPath): string =>
  u.climbsOut
    ? `the engine looks up ${JSON.stringify(u.path)} as written, and its ".." climbs above res://: no pack file has that name, so the engine reads the path from the disk, above the folder it was started in, content nobody reviewed`
    : `the engine looks up ${JSON.stringify(u.path)} as written, not as the pack names the file (${u.tidy}): it misses the pack's file and reads the path from the disk (in the folder it was started in), content nobody reviewed`

/** The fix for an unsimplified path. */
export const untidyFix = (u: UntidyPath): string => `Write the path as ${u.tidy}`
