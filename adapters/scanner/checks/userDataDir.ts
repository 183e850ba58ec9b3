import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"

// Where the engine puts user://, read from the project settings as OS_Unix::get_user_data_dir does
// (drivers/unix/os_unix.cpp:467-484 of 3.5; OS_Windows the same, platform/windows/os_windows.cpp:3700-3716):
// - the folder name is `application/config/name` through OS::get_safe_dir_name without folders (core/os/os.cpp:317-331
//   of 3.5, the same in 3.2.3): `\` becomes `/`, control characters and spaces at the edges go, and each of
//   `: * ? " < > | /` becomes `-`; `.` and `..` stay as they are. The name defaults to "" (GLOBAL_DEF,
//   core/project_settings.cpp:1063 of 3.5).
// - an empty name makes user:// ProjectSettings::get_resource_path() in 3.2.3, "" for a main pack, so FileAccess::fix_path
//   drops "user://" (core/os/file_access.cpp:138-145 of 3.5): `user://x` is `x` in the working folder and
//   `user:///tmp/x` the absolute `/tmp/x`. 3.5 and 4.x use app_userdata/[unnamed project] instead.
// - otherwise user:// is `<data folder>/godot/app_userdata/<name>`: a name `..` is the engine's folder of every game
//   (~/.local/share/godot: other games' saves, export templates), `.` app_userdata itself; Windows drops the dots
//   and spaces ending a folder name, so any name of only dots and spaces is one of those two there.
// - with `use_custom_user_dir`, user:// is `<data folder>/<custom_user_dir_name>` through get_safe_dir_name with
//   folders (`..` becomes `-`, `.` stays: `.` is the player's data folder itself), or the name's folder when that is
//   empty.
// Godot 4 (core/os/os.cpp:227-255 and :298-314 of 4.x) renames `.`/`..` to dot/twodots and drops trailing dots in the
// current builds, but the scanner does not know the build: a dotted name is an error for both; a missing name only
// for Godot 3, whose 3.2.3 build the platform runs.

/**
 * Folders under the user's data folder (%APPDATA% on Windows, ~/.local/share on Linux, Application Support
 * on macOS) that other programs or the desktop read: a custom user:// there writes into them. Compared
 * case-insensitively; any folder below one counts too.
 */
const SHARED_DATA_FOLDERS: ReadonlySet<string> = new Set([
  "microsoft", "apple", "google", "mozilla", "code", "npm", "steam", "discord", "godot", "applications", "autostart",
  "systemd", "dbus-1", "flatpak", "icons", "mime", "fonts", "keyrings", "trash", "nautilus", "kservices5", "gnome-shell", "recently-used.xbel",
])

const NAME = "application/config/name"
const CUSTOM_NAME = "application/config/custom_user_dir_name"

/** OS::get_safe_dir_name of 3.x: `\` becomes `/`, edges are stripped, then `: * ? " < > |` and `..` (with folders) or `/` (without) become `-`. */
export const safeDirName = (name: string, allowFolders: boolean): string =>
  [":", "*", "?", '"', "<", ">", "|", allowFolders ? ".." : "/"].reduce((s, bad) => s.replaceAll(bad, "-"), name.replaceAll("\\", "/").replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, ""))

/** A folder name that is no folder of its own: empty, `.`, `..`, or (Windows drops trailing dots and spaces) only dots and spaces. */
const noFolderOfItsOwn = (name: string): boolean => /^[. ]*$/.test(name)

/** Where a name of only dots and spaces puts user:// (under godot/app_userdata/). */
const placeOf = (folder: string): string =>
  folder === ".."
    ? "the engine's folder of every game (godot/, beside app_userdata: other games' saves and the export templates)"
    : folder === "."
      ? "app_userdata itself, the folder of every game's saves"
      : "app_userdata itself on Windows, which drops the dots and spaces ending a folder name (the folder of every game's saves)"

/** A value of a setting that places user://: its text when it is a string (null when the engine converts another type, never to an empty or dotted text). */
export interface PlacingValue {
  readonly key: string
  readonly line: number
  readonly text: string | null
}

export interface UserDirSettings {
  /** Every `application/config/name` value, its feature overrides included. */
  readonly names: ReadonlyArray<PlacingValue>
  /** Every `custom_user_dir_name` value (its overrides included). */
  readonly customNames: ReadonlyArray<PlacingValue>
  /** Where `use_custom_user_dir` is first true, or null when it never is. */
  readonly customOn: number | null
  /** Godot 3 puts user:// at no folder for an empty name; Godot 4 at app_userdata/[unnamed project]. */
  readonly godot: 3 | 4
  /**
   * The line to report a missing name at (the `[application]` header, else 1), or null when the file need not set the
   * name: not a settings file the engine may start from (override.cfg).
   */
  readonly missingAt: number | null
}

/** The fix for a name: the line to write. */
const NAME_FIX = `Under [application] in project.godot write the line config/name="Your Game" (the game's own name, with letters), remove any config/name.<feature> override that differs, and export again.`

/** The findings for where the settings put user://. */
export const userDataDirFindings = (settings: UserDirSettings, file: string, storedPath: string): ReadonlyArray<Finding> => {
  const out: Array<Finding> = []
  const flag = (setting: string, line: number, message: string): void => {
    out.push(finding({ rule: RULE.hostilePath, file, storedPath, line, pattern: `project setting ${setting}`, message }))
  }
  const own = settings.names.filter((n) => n.key === NAME)
  if (settings.godot === 3 && settings.missingAt !== null && own.length === 0) {
    flag(NAME, settings.missingAt, `The project settings have no application/config/name: Godot 3.2.3 then puts user:// at the game's resource path, which for a pack is no folder at all, so "user://x" is the file x in the folder the game was started in and "user:///tmp/x" the absolute /tmp/x (a game writes anywhere the player can). ${NAME_FIX}`)
  }
  for (const n of settings.names) {
    if (n.text === null) continue
    const folder = safeDirName(n.text, false)
    if (folder === "" && settings.godot === 4) continue
    if (!noFolderOfItsOwn(folder)) continue
    flag(
      NAME,
      n.line,
      folder === ""
        ? `The project setting ${n.key} is ${JSON.stringify(n.text)}, empty once the engine makes it a folder name: Godot 3.2.3 then puts user:// at the game's resource path, which for a pack is no folder at all, so "user://x" is the file x in the folder the game was started in and "user:///tmp/x" the absolute /tmp/x. ${NAME_FIX}`
        : `The project setting ${n.key} is ${JSON.stringify(n.text)}, which the engine keeps as the folder name ${JSON.stringify(folder)}: user:// becomes ${placeOf(folder)} instead of a folder of the game's own. ${NAME_FIX}`,
    )
  }
  if (settings.customOn !== null) {
    const appName = own.at(-1)?.text ?? settings.names.at(-1)?.text ?? ""
    for (const custom of settings.customNames.length === 0 ? [null] : settings.customNames) {
      // An empty custom name means the project's name, without folders.
      const mine = safeDirName(custom?.text ?? "", true)
      const folder = mine !== "" ? mine : safeDirName(appName, false)
      out.push(customUserDirFinding(folder, custom?.line ?? settings.customOn, file, storedPath))
    }
  }
  return out
}

/**
 * `use_custom_user_dir` puts user:// at `<data folder>/<custom_user_dir_name>` (or the project's name) instead of the
 * game's own `godot/app_userdata/<name>`: a name with folders, `.` (the data folder itself: ~/.local/share holds the
 * desktop's launchers and systemd's user units), or a folder other programs read lets the game write there
 * (%APPDATA%/Microsoft/Windows/Start Menu/Programs/Startup runs what it holds at log-in). A single plain name is a
 * warning the reviewer judges.
 */
const customUserDirFinding = (folder: string, line: number, file: string, storedPath: string): Finding => {
  const first = folder.split("/")[0] ?? ""
  const itself = noFolderOfItsOwn(folder)
  const shared = folder.includes("/") || itself || SHARED_DATA_FOLDERS.has(first.toLowerCase())
  return finding({
    rule: RULE.hostilePath,
    file,
    storedPath,
    line,
    severity: shared ? "error" : "warning",
    pattern: `project setting ${CUSTOM_NAME}`,
    message: shared
      ? `The project settings application/config/use_custom_user_dir and ${CUSTOM_NAME} put the game's user:// folder at ${JSON.stringify(folder)} in the player's data folder${folder.includes("/") ? ", a nested folder that can be another program's" : itself ? ", which is the data folder itself (where the desktop's launchers and autostart entries live)" : `, the folder of ${first} that other programs read`}: what the game saves there lands in their files. Use a single folder name of your own, e.g. config/custom_user_dir_name="Your Studio" (or turn use_custom_user_dir off), and export again.`
      : `The project settings application/config/use_custom_user_dir and ${CUSTOM_NAME} put the game's user:// folder at ${JSON.stringify(folder)} directly in the player's data folder instead of the game's own. Check that the name is the game's or the studio's own folder, not another program's.`,
  })
}
