import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import type { PackContents } from "../PackContents.ts"
import { extensionOf } from "../pack/packPath.ts"
import type { PackEntry } from "../pack/PackLayout.ts"
import type { Policy } from "../policy/Policy.ts"
import { reservedFolderOf } from "./platformScripts.ts"

// Checks 3, 5 and 6 as far as names tell: reserved folders, native code, other languages, compiled scripts.

const PRESET_FIX =
  'In export_presets.cfg, in the [preset.N] section whose name="Summer Game PCK", set script_export_mode=0 (Godot 4.3+: Export → Script → "GDScript Export Mode: Text"; Godot 3: Script → "Export Mode: Text") and export again.'

/** The native pattern a path matches: an extension (`.so`), or a folder suffix (`.framework/`) on any directory. */
export const nativePatternOf = (path: string, policy: Policy): string | null => {
  const lower = path.toLowerCase()
  const ext = extensionOf(lower)
  const folders = lower.split("/").slice(0, -1)
  for (const n of policy.nativeExtensions) {
    const pattern = n.toLowerCase()
    if (pattern.endsWith("/") ? folders.some((f) => f.endsWith(pattern.slice(0, -1))) : ext === pattern) return n
  }
  return null
}

export const isNativeByName = (path: string, policy: Policy): boolean => nativePatternOf(path, policy) !== null

const OTHER_LANGUAGE_EXTENSIONS: ReadonlyMap<string, string> = new Map([
  [".cs", "C# source"],
  [".csproj", "C# project"],
  [".sln", "C# solution"],
  [".fs", "F# source"],
  [".vb", "Visual Basic source"],
  [".vs", "VisualScript (Godot 3)"],
  [".dotnet-publish-manifest", ".NET publish manifest"],
])

export const compiledScriptFinding = (contents: PackContents, entry: PackEntry): Finding => {
  const creator = contents.creatorPath(entry)
  const encrypted = extensionOf(entry.path) === ".gde"
  return finding({
    rule: RULE.compiledScript,
    file: creator,
    storedPath: entry.path,
    pattern: encrypted ? ".gde" : ".gdc",
    message: `${creator} was exported as ${encrypted ? "an encrypted script (script_export_mode=2, Godot 3)" : "compiled/tokenized GDScript"} (${entry.path}); reviewers need readable source. ${PRESET_FIX}`,
  })
}

/**
 * Where user:// lies below the player's home folder, as res:// paths seen from a game started there (a desktop
 * launcher's working folder): ~/.local/share (Linux; XDG_DATA_HOME's default), ~/Library/Application Support
 * (macOS), %APPDATA% = ~/AppData/Roaming (Windows), each holding godot/app_userdata/<name> or a custom user folder.
 * Compared without case: Windows and macOS folders answer to any.
 */
const USER_DATA_UNDER_HOME: ReadonlyArray<string> = ["res://.local/share/", "res://library/application support/", "res://appdata/roaming/"]

/**
 * The folder of USER_DATA_UNDER_HOME a pack path is under, or null. The engine looks for `<path>.remap` and
 * `<path>.import` on the disk when the pack lacks them (FileAccess falls back to the working folder:
 * core/io/resource_loader.cpp `_path_remap`, core/io/resource_importer.cpp `recognize_path`), so a file of the pack
 * there loads what the game wrote beside it through user:// (a fifty-eighth red team's, run by godot3-server).
 */
export const userDataFolderOf = (path: string): string | null => USER_DATA_UNDER_HOME.find((folder) => path.toLowerCase().startsWith(folder)) ?? null

export const nameFindings = (contents: PackContents, policy: Policy): ReadonlyArray<Finding> => {
  const findings: Array<Finding> = []
  const seen = new Set<string>()
  const once = (f: Finding): void => {
    const key = `${f.rule}\0${f.file}`
    if (seen.has(key)) return
    seen.add(key)
    findings.push(f)
  }
  for (const entry of contents.entries) {
    const creator = contents.creatorPath(entry)
    const storedPath = entry.path
    const hit = reservedFolderOf(creator, policy.reservedPaths)
    if (hit !== null) {
      once(
        finding({
          rule: RULE.reservedPath,
          file: creator,
          storedPath,
          pattern: hit,
          message: `${creator} is inside the reserved folder ${hit}, which the platform provides itself. Add "${hit}*" to exclude_filter of the "Summer Game PCK" preset in export_presets.cfg and export again.`,
        }),
      )
    }
    const native = nativePatternOf(creator, policy) ?? nativePatternOf(storedPath, policy)
    if (native !== null) {
      once(
        finding({
          rule: RULE.nativeCode,
          file: creator,
          storedPath,
          pattern: native,
          message: `${creator} is native or binary code (${native}), which cannot be reviewed. Packs may contain only game content and GDScript; remove it (and any GDExtension/GDNative plugin) from the export.`,
        }),
      )
    }
    const language = OTHER_LANGUAGE_EXTENSIONS.get(extensionOf(storedPath))
    const dotnet = storedPath.startsWith("res://.godot/mono/")
    if (language !== undefined || dotnet) {
      once(
        finding({
          rule: RULE.nonGdscript,
          file: creator,
          storedPath,
          pattern: dotnet ? ".godot/mono/" : extensionOf(storedPath),
          message: `${creator} is ${dotnet ? "a .NET assembly or runtime file" : `a ${language}`}; creator scripts must be written in GDScript. Rewrite it in GDScript and export without the .NET/C# build.`,
        }),
      )
    }
    const userData = userDataFolderOf(creator) ?? userDataFolderOf(storedPath)
    if (userData !== null) {
      once(
        finding({
          rule: RULE.hostilePath,
          file: creator,
          storedPath,
          pattern: userData,
          message: `${creator} is under ${userData}, where the game's own user:// folder lies when it is started from the player's home folder: the engine reads a .remap or .import beside a file from the disk when the pack has none, and the game can write one there through user://, so loading ${creator} may load anything. Move the file to another folder of the project (and the paths naming it) and export again.`,
        }),
      )
    }
    const ext = extensionOf(storedPath)
    if (ext === ".gdc" || ext === ".gde") once(compiledScriptFinding(contents, entry))
  }
  return findings
}
