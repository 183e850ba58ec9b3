import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { judgePath } from "../gdscript/analyzeScript.ts"
import { strs } from "../gdscript/values.ts"
import { extensionOf, normalisePackPath } from "../pack/packPath.ts"
import { unescapeGodotString } from "../resource/godotString.ts"

// `.remap` and `.import` files redirect a path to another: `ResourceLoader` loads the target
// instead, and picks the loader by the target's extension (core/io/resource_loader.cpp,
// _path_remap; core/io/resource_importer.cpp for `.import`'s `path`/`path.<feature>` keys).
// A target outside the pack loads unreviewed content; a script target behind a name that is not a
// script hides code where a reviewer expects an asset.

const SCRIPT_EXTENSIONS = new Set([".gd", ".gdc", ".gde"])

const withoutExtension = (path: string): string => path.slice(0, path.length - extensionOf(path).length)

/** Every `path=` / `path.<feature>=` value of the file (the `[remap]` section's keys). */
export const redirectTargets = (text: string): ReadonlyArray<string> =>
  [...text.matchAll(/^\s*path(?:\.[A-Za-z0-9_]+)?\s*=\s*"((?:[^"\\]|\\.)*)"/gm)].map((m) => unescapeGodotString(m[1] ?? ""))

/**
 * `inPack` says whether a res:// path is an entry of the pack: a `.remap` target that is not is read
 * from the disk (FileAccess falls back to the file system for a res:// path the pack lacks).
 */
export const redirectFindings = (stored: string, text: string, inPack: (path: string) => boolean = () => true): ReadonlyArray<Finding> => {
  const original = stored.replace(/\.(remap|import)$/, "")
  const kind = stored.endsWith(".remap") ? ".remap" : ".import"
  const findings: Array<Finding> = []
  for (const target of redirectTargets(text)) {
    const outside = judgePath(strs([target]), ["res://"], false) !== "inside"
    const scriptBehindOtherName = SCRIPT_EXTENSIONS.has(extensionOf(target)) && !SCRIPT_EXTENSIONS.has(extensionOf(original))
    // An export redirects a script only to its own compiled form (`player.gd` → `player.gdc`); a script sent to
    // another script (its source, or another's compiled form) is a decoy.
    const scriptToScript = kind === ".remap" && SCRIPT_EXTENSIONS.has(extensionOf(original)) && SCRIPT_EXTENSIONS.has(extensionOf(target)) && (extensionOf(target) === ".gd" || withoutExtension(normalisePackPath(target)) !== withoutExtension(original))
    const absent = !outside && kind === ".remap" && !inPack(normalisePackPath(target))
    if (!outside && !scriptBehindOtherName && !scriptToScript && !absent) continue
    findings.push(
      finding({
        rule: RULE.hostilePath,
        file: original,
        storedPath: stored,
        pattern: `${kind} target`,
        message: outside
          ? `${stored} redirects ${original} to ${JSON.stringify(target)}, outside the pack: the engine would load content nobody reviewed. Remove ${stored} and export again so the file itself is in the pack.`
          : absent
            ? `${stored} redirects ${original} to ${JSON.stringify(target)}, which is not in the pack: the engine would read it from the disk (next to the game or in the working folder), content nobody reviewed. Remove ${stored} and export again.`
            : scriptToScript
              ? `${stored} redirects the script ${original} to another script, ${JSON.stringify(target)}: the engine loads that one wherever ${original} is named (even when ${original} is in the pack), and no export writes such a redirect (it redirects a script only to its own compiled form). Remove ${stored} and export again.`
              : `${stored} redirects ${original} to the script ${JSON.stringify(target)}: loading what looks like ${extensionOf(original) || "an asset"} runs code. Remove ${stored} and load the script by its own .gd path.`,
      }),
    )
  }
  return findings
}
