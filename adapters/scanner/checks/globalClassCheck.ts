import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { packLookup, servedByPack, untidyFix, untidyWhy } from "../pack/packPath.ts"
import { tokenize } from "../gdscript/tokenizer.ts"
import type { Context } from "./scanContext.ts"

// A global class the project registers (Godot 3's `_global_script_classes`, Godot 4's
// `.godot/global_script_class_cache.cfg`) at a path the pack lacks, or at a uid:// that resolves to one:
// the engine loads the class's script when a script names it (the GDScript compiler resolves the name
// through ScriptServer::get_global_class_path and loads that path), from the disk when the pack lacks it.
// Registered paths outside the pack (user://, absolute) are errors of the settings check whether named or
// not; a registered class no script of the pack names is never loaded, so a path the pack lacks is no
// finding then (an editor export can leave stale entries behind).

/** The findings for each use of a registered class whose script the pack lacks, at the first use in each script. */
export const unresolvedClassFindings = (ctx: Context, registered: ReadonlyMap<string, string>): ReadonlyArray<Finding> => {
  const missing = new Map<string, string>()
  // Registered paths with uid:// already resolved (contentScan); an unresolvable uid:// is the settings check's finding, a path outside the pack too.
  for (const [name, path] of registered) if (path.startsWith("res://") && !servedByPack((p) => ctx.contents.has(p), path, null, ctx.grammar)) missing.set(name, path)
  if (missing.size === 0) return []
  const out: Array<Finding> = []
  for (const { location } of ctx.scripts) {
    const named = new Set<string>()
    for (const token of tokenize(location.source ?? "", ctx.grammar)) {
      const path = token.kind === "id" && !named.has(token.text) ? missing.get(token.text) : undefined
      if (path === undefined) continue
      named.add(token.text)
      const position = location.mapPosition?.(token.line, token.column) ?? { line: token.line, column: token.column }
      out.push(
        finding({
          rule: RULE.hostilePath,
          file: location.file,
          storedPath: location.storedPath,
          embeddedIn: location.embeddedIn,
          ...position,
          pattern: "global class target",
          message: untidyMessage(location.file, token.text, path, ctx.grammar) ?? `${location.file} names the global class ${token.text}, which the project registers at ${path}, a file the pack lacks: the engine would load its script from the disk (next to the game or in the working folder), code nobody reviewed. Include the class's script in the export (or stop using the class) and export again.`,
        }),
      )
    }
  }
  return out
}

/** The message for a class registered at a path not in simplified form, or null. */
const untidyMessage = (file: string, name: string, path: string, grammar: 3 | 4): string | null => {
  const untidy = packLookup(path, null, grammar).untidy
  return untidy === null ? null : `${file} names the global class ${name}, which the project registers at ${path}: ${untidyWhy(untidy)}. ${untidyFix(untidy)} in the project's registered classes (_global_script_classes in project.godot, .godot/global_script_class_cache.cfg in Godot 4) and export again.`
}
