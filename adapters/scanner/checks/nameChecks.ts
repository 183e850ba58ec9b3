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
    const ext = extensionOf(storedPath)
    if (ext === ".gdc" || ext === ".gde") once(compiledScriptFinding(contents, entry))
  }
  return findings
}
