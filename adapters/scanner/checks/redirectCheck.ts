import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { judgePath } from "../gdscript/analyzeScript.ts"
import { strs } from "../gdscript/values.ts"
import { extensionOf } from "../pack/packPath.ts"
import { unescapeGodotString } from "../resource/godotString.ts"

// `.remap` and `.import` files redirect a path to another: `ResourceLoader` loads the target
// instead, and picks the loader by the target's extension (core/io/resource_loader.cpp,
// _path_remap; core/io/resource_importer.cpp for `.import`'s `path`/`path.<feature>` keys).
// A target outside the pack loads unreviewed content; a script target behind a name that is not a
// script hides code where a reviewer expects an asset.

const SCRIPT_EXTENSIONS = new Set([".gd", ".gdc", ".gde"])

/** Every `path=` / `path.<feature>=` value of the file (the `[remap]` section's keys). */
export const redirectTargets = (text: string): ReadonlyArray<string> =>
  [...text.matchAll(/^\s*path(?:\.[A-Za-z0-9_]+)?\s*=\s*"((?:[^"\\]|\\.)*)"/gm)].map((m) => unescapeGodotString(m[1] ?? ""))

export const redirectFindings = (stored: string, text: string): ReadonlyArray<Finding> => {
  const original = stored.replace(/\.(remap|import)$/, "")
  const kind = stored.endsWith(".remap") ? ".remap" : ".import"
  const findings: Array<Finding> = []
  for (const target of redirectTargets(text)) {
    const outside = judgePath(strs([target]), ["res://"], false) !== "inside"
    const scriptBehindOtherName = SCRIPT_EXTENSIONS.has(extensionOf(target)) && !SCRIPT_EXTENSIONS.has(extensionOf(original))
    if (!outside && !scriptBehindOtherName) continue
    findings.push(
      finding({
        rule: RULE.hostilePath,
        file: original,
        storedPath: stored,
        pattern: `${kind} target`,
        message: outside
          ? `${stored} redirects ${original} to ${JSON.stringify(target)}, outside the pack: the engine would load content nobody reviewed. Remove ${stored} and export again so the file itself is in the pack.`
          : `${stored} redirects ${original} to the script ${JSON.stringify(target)}: loading what looks like ${extensionOf(original) || "an asset"} runs code. Remove ${stored} and load the script by its own .gd path.`,
      }),
    )
  }
  return findings
}
