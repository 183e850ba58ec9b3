import type { Expr } from "./ast.ts"
import type { Val } from "./values.ts"

// Files a pack writes that a later load can read back as code. The engine picks a resource loader by the path's
// extension (3.x core/io/resource_loader.cpp `_load`: each loader's `recognize_path`, lower-cased extension; 4.x
// the same), and a `.remap` or `.import` file beside any path redirects its load (3.x `_path_remap` opens
// `path + ".remap"`; ResourceFormatImporter reads `path + ".import"`). A write whose path ends in an extension no
// loader that can build a script takes (JSON, text, images, sounds, fonts' data) cannot put code where a load
// finds it; anything else can: scripts, text and binary resources and scenes (the binary loader also takes every
// resource type's own extension: .anim, .material, .theme, …), native libraries, redirects, or a path whose end is
// not known.

/** Extensions whose files no loader reads as a script or a resource that can carry one. */
const INERT_EXTENSIONS: ReadonlySet<string> = new Set([
  "json", "cfg", "ini", "txt", "csv", "tsv", "log", "dat", "sav", "save", "bak", "backup", "old", "tmp", "bin", "db", "md", "xml", "html", "htm", "yaml", "yml",
  "png", "jpg", "jpeg", "webp", "bmp", "tga", "svg", "hdr", "exr", "wav", "ogg", "mp3", "ttf", "otf", "webm", "ogv",
])

/** Whether a path's last part ends in an inert extension (a control character in it may cut the path short: not inert; a NUL cuts it where the engine opens it: FileAccessUnix passes `path.utf8().get_data()` to fopen). */
const inertEnd = (path: string): boolean => {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1)
  const dot = name.lastIndexOf(".")
  if (/[\u0000-\u001f]/.test(path) || name === "") return false
  // No extension: no loader recognizes the path (a `.remap`/`.import` beside it is a write of its own).
  return dot < 0 || INERT_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())
}

/** Engine methods that write a folder or take a file away, never a file a load reads. */
const FOLDER_WRITES: ReadonlySet<string> = new Set(["make_dir", "make_dir_recursive", "make_dir_absolute", "make_dir_recursive_absolute", "remove", "remove_absolute"])

/**
 * Whether a path `method` writes may be one a load reads as code: a constant with another extension, or a path
 * whose end is not known (the user data folder's own path joined to constants is known whole: values.ts `dataDir`).
 */
export const mayBeLoadable = (method: string, path: Val): boolean => {
  if (FOLDER_WRITES.has(method)) return false
  if (path.t === "str") return path.values.some((p) => !inertEnd(p))
  if (path.t !== "unknown") return false
  // A known end is the file's only when nothing between can cut the path short (values.ts `digitsOnly`).
  const end = path.dataDir === true ? path.prefix : path.digitsOnly === true || path.alts !== undefined ? path.suffix : undefined
  return end === undefined || !inertEnd(end)
}

/** The end of a written path that is the file's for sure (see mayBeLoadable), or null. */
const knownEnds = (path: Val): ReadonlyArray<string> => {
  if (path.t === "str") return path.values
  if (path.t !== "unknown") return []
  const end = path.dataDir === true ? path.prefix : path.digitsOnly === true || path.alts !== undefined ? path.suffix : undefined
  // The few constants it may be (`some`, as a string of the pack's data read by the analysis: a sixtieth red team's
  // `"user://game/lvl.tres." + data["e"]`), each joined to the known start.
  return [...(end === undefined ? [] : [end]), ...(path.some ?? []).map((s) => `${path.prefix ?? ""}${s}`)]
}

/**
 * Whether a written path ends in `.remap` or `.import` (in any case: Windows and macOS folders answer to any): a
 * redirect the engine reads beside a res:// path from the disk when the pack has none, whatever the working folder
 * and the data folder (a fifty-ninth red team's `XDG_DATA_HOME`, Snap home and user:// working folder, each making a
 * file of the pack load code the game wrote; ConfigFile writes the `[remap]` form itself). A constant end after a
 * part not known (`name + ".remap"`) is a redirect's wherever that part holds no NUL (a ninety-eighth red team's).
 */
export const writesRedirect = (method: string, path: Val): boolean =>
  !FOLDER_WRITES.has(method) && (knownEnds(path).some(namesRedirect) || (path.t === "unknown" && path.suffix !== undefined && namesRedirect(path.suffix)))

/**
 * Whether a file name is a redirect's, `.remap` or `.import` in any case, after what the file system drops or the
 * engine's fopen cuts at its end (control characters; Windows drops trailing dots and spaces).
 */
export const namesRedirect = (name: string): boolean => /\.(remap|import)$/i.test(name.replace(/[\s.\u0000-\u001f]+$/, ""))

/**
 * Whether a written path is a file the engine reads by itself at start-up (STARTUP_FILES, in any case, after what the
 * file system drops at its end), from the working folder when the pack has none: Godot 3.2 reads `res://project.godot`
 * before the pack's project.binary (ProjectSettings::_load_settings_text_or_binary), so a game started in its user://
 * folder that writes `user://project.godot` sets its own autoloads at the next start (a ninety-sixth red team's); and
 * it loads the audio bus layout of `audio/default_bus_layout`, by default `res://default_bus_layout.tres`, which an
 * export stores only for a game with buses of its own (AudioServer::load_default_bus_layout), a resource whose
 * built-in script runs as it loads (a ninety-seventh red team's).
 */
export const writesStartupSettings = (method: string, path: Val): boolean => !FOLDER_WRITES.has(method) && knownEnds(path).some(namesStartupSettings)

/** Whether a file name (or a path's last part) is one the engine reads at start-up (`project.godot`, `default_bus_layout.tres`), in any case, after what the file system drops at its end. */
export const namesStartupSettings = (name: string): boolean => STARTUP_FILES.test(name.replace(/[\s.\u0000-\u001f]+$/, ""))

/** The res:// files the engine opens by itself at start-up whatever the pack holds, by their last part. */
const STARTUP_FILES = /(?:^|[/\\])(?:project\.godot|default_bus_layout\.tres)$/i

/** Engine methods that copy or move a file (`from`, `to`), Godot 3 Directory's and 4.x DirAccess's. */
const COPIES: ReadonlySet<string> = new Set(["copy", "copy_absolute", "rename", "rename_absolute"])

/** A user:// folder spelled out: its path ends in `/` and climbs nowhere. */
const userFolder = (v: Val): boolean => v.t === "str" && v.values.length === 1 && /^user:\/\/(?:[^/\\]+\/)*$/.test(v.values[0] ?? "") && !(v.values[0] ?? "").split("/").includes("..")

/**
 * Whether a copy or move keeps the name of the file it takes (`d.copy(SAVE_DIR + fn, BACKUP_DIR + fn)`, both folders
 * user:// folders spelled out, the copy's no shallower, `fn` one local variable): the file it makes is named as a file already on
 * the disk, whatever `fn` holds (a NUL cuts both paths at the same place; a `/` or `..` in it moves both alike), and holds that file's
 * bytes, so it can be read as code only where that file could: a file the pack wrote, which counts as its own write,
 * or one it did not write, which is not the pack's (docs/scanner.md#unpinned-loads).
 */
export const keepsName = (method: string, args: ReadonlyArray<Expr>, evaluate: (e: Expr) => Val, isLocal: (name: string) => boolean): boolean => {
  if (!COPIES.has(method)) return false
  const [from, to] = args
  if (from?.k !== "bin" || to?.k !== "bin" || from.op !== "+" || to.op !== "+" || from.right.k !== "id" || to.right.k !== "id" || from.right.name !== to.right.name) return false
  // A local gives one value to both reads; a member may be read through a 4.x getter that gives another each time.
  if (!isLocal(from.right.name)) return false
  const a = evaluate(from.left)
  const b = evaluate(to.left)
  // The copy no shallower than its source: a `..` in the name that takes the copy out of user:// takes the source
  // out first, to a file the pack put there only by a write of its own, which counts where it is made (a twentieth
  // red team's copy from a folder 24 deep to user:// itself read inside user:// and wrote outside it). Such a write
  // outside user:// is a finding of its own (fileRules.ts mayClimb).
  return userFolder(a) && userFolder(b) && depth(b) >= depth(a)
}

/** How many folders a spelled-out user:// folder is below user:// (userFolder). */
const depth = (v: Val): number => (v.t === "str" ? (v.values[0] ?? "").split("/").length : -1)
