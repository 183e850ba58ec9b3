import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { packLookup, servedByPack, untidyFix, untidyWhy } from "../pack/packPath.ts"
import { tokenize } from "../gdscript/tokenizer.ts"
import { engineClasses, nativeBaseOf, type Registered, registeredBasesOf, START_UP_BASES } from "./classRegistrations.ts"
import { isPlatformScript } from "./platformScripts.ts"
import type { Context, RegistrationList } from "./scanContext.ts"

// A global class the project registers (Godot 3's `_global_script_classes`, Godot 4's
// `.godot/global_script_class_cache.cfg`, read as the engine reads them: classRegistrations.ts) at a path the
// pack lacks, or at a uid:// that resolves to one, makes the engine read the class's script from the disk
// wherever it loads it:
// - where a script names the class (the GDScript compiler resolves the name through
//   ScriptServer::get_global_class_path and loads that path): an error at each script's first use;
// - at every start, named or not, when the chain of registered bases ends at ResourceFormatLoader or
//   ResourceFormatSaver: Main::start calls ResourceLoader::add_custom_loaders and ResourceSaver::add_custom_savers
//   (main/main.cpp:1861-1862 of 3.5, :3914-3915 of 4.x), which load and instance the script of every registered
//   class whose native base (ScriptServer::get_global_class_native_base) is that class
//   (core/io/resource_loader.cpp:936-953 and core/io/resource_saver.cpp:231-248 of 3.5; :1433-1449 and :254-270 of 4.x).
// Either way the registration is an error at its line in the settings, like an autoload the pack lacks.
// Registered paths outside the pack (user://, absolute) are errors of the settings check whether loaded or not;
// a registered class the engine never loads is no finding (an editor export can leave stale entries behind), nor is
// a class of the platform's own, registered at its script's path that the pack lacks (the policy's platformClasses,
// platformScripts.ts: the SDK the export excludes, whose EngineGame every game extends).

/** A class the engine registers, with the settings file that registers it and the path the engine loads (uid:// resolved, relative ones under res://). */
export interface EngineClass {
  readonly entry: Registered
  readonly source: RegistrationList
  readonly loads: string
}

/**
 * Where the engine reads registrations, the file it prefers last (its entry of a name wins): the settings (Godot 3 reads
 * project.godot first and project.binary only without it, Godot 4 the other way round; each may fall back to the other:
 * contentScan.ts isPrimarySettings), then override.cfg, then Godot 4's class cache.
 */
const ORDER: Readonly<Record<3 | 4, ReadonlyArray<string>>> = {
  3: ["res://project.binary", "res://project.godot", "res://override.cfg"],
  4: ["res://project.godot", "res://project.binary", "res://override.cfg", "res://.godot/global_script_class_cache.cfg"],
}

/** The classes the engine registers from the pack's settings and class cache: the last entry of a name wins. */
export const registeredClasses = (ctx: Context): ReadonlyMap<string, EngineClass> => {
  // Godot 3 has no class cache; Godot 4 reads the settings' list first (ScriptServer::init_languages), then the cache.
  const sources = ORDER[ctx.grammar].flatMap((p) => {
    const source = ctx.registrations.get(p)
    return source === undefined ? [] : [source]
  })
  const classes = engineClasses(sources.flatMap((source) => source.entries.map((entry) => ({ ...entry, source }))))
  return new Map(
    [...classes].map(([name, entry]) => {
      const path = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(entry.path) ? entry.path : `res://${entry.path}`
      // A class registered by uid:// (Godot 4) is the script the pack's uid cache gives that id.
      const resolved = ctx.grammar === 4 && path.startsWith("uid://") ? ctx.contents.resolveUid(path) : null
      return [name, { entry, source: entry.source, loads: resolved !== null && "path" in resolved ? resolved.path : path }] as const
    }),
  )
}

/**
 * The findings for each registered class the engine loads whose script the pack lacks: at the first use in each
 * script that names it, and at its registration (for a loader or saver class, whether named or not).
 */
export const unresolvedClassFindings = (ctx: Context, classes: ReadonlyMap<string, EngineClass>): ReadonlyArray<Finding> => {
  const missing = new Map<string, string>()
  // Registered paths with uid:// already resolved; an unresolvable uid:// is the settings check's finding, a path outside the pack too.
  // A class the policy lists as the platform's, registered at its script's path the pack lacks, is the platform's to provide.
  const has = (p: string): boolean => ctx.contents.has(p)
  for (const [name, c] of classes) {
    if (c.loads.startsWith("res://") && !servedByPack(has, c.loads, null, ctx.grammar) && !isPlatformScript(name, c.entry.path, ctx.policy.platformClasses ?? [], has)) missing.set(name, c.loads)
  }
  if (missing.size === 0) return []
  const out: Array<Finding> = []
  const firstUse = new Map<string, string>()
  for (const { location } of ctx.scripts) {
    const named = new Set<string>()
    for (const token of tokenize(location.source ?? "", ctx.grammar)) {
      const path = token.kind === "id" && !named.has(token.text) ? missing.get(token.text) : undefined
      if (path === undefined) continue
      named.add(token.text)
      const position = location.mapPosition?.(token.line, token.column) ?? { line: token.line, column: token.column }
      if (!firstUse.has(token.text)) firstUse.set(token.text, `${location.file}:${position.line}`)
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
  const entries = new Map([...classes].map(([n, k]) => [n, k.entry]))
  for (const [name, path] of missing) {
    const c = classes.get(name)
    const native = nativeBaseOf(name, entries)
    const use = firstUse.get(name)
    if (c === undefined || (use === undefined && !START_UP_BASES.has(native))) continue
    out.push(registrationFinding(ctx, name, c, path, use ?? null, native, registeredBasesOf(name, entries)))
  }
  return out
}

/** The error at a loaded class's registration whose script the pack lacks. */
const registrationFinding = (ctx: Context, name: string, c: EngineClass, path: string, use: string | null, native: string, through: ReadonlyArray<string>): Finding => {
  const when = START_UP_BASES.has(native)
    ? `it is a ${native}${through.length === 0 ? "" : ` (through ${through.join(" → ")})`}, and the engine loads and instances the script of every registered ${native} class at each start, whether or not a script names it`
    : `${use} names it (the engine loads a global class's script where a script names the class)`
  const untidy = packLookup(path, null, ctx.grammar).untidy
  const where = untidy === null ? "the pack has no such file: the engine would read it from the disk (next to the game or in the working folder), code nobody reviewed" : untidyWhy(untidy)
  const fix = untidy === null ? "Include the class's script in the export, or remove the class's registration" : `${untidyFix(untidy)} in the registration`
  return finding({
    rule: RULE.hostilePath,
    file: c.source.file,
    storedPath: c.source.storedPath,
    line: c.entry.line,
    pattern: `project setting ${c.source.key}`,
    message: `The project setting ${c.source.key} registers the global class ${name} at ${JSON.stringify(c.entry.path)}; ${when}, and ${where}. ${fix} (_global_script_classes in project.godot, .godot/global_script_class_cache.cfg in Godot 4), and export again.`,
  })
}

/** The message for a class registered at a path not in simplified form, or null. */
const untidyMessage = (file: string, name: string, path: string, grammar: 3 | 4): string | null => {
  const untidy = packLookup(path, null, grammar).untidy
  return untidy === null ? null : `${file} names the global class ${name}, which the project registers at ${path}: ${untidyWhy(untidy)}. ${untidyFix(untidy)} in the project's registered classes (_global_script_classes in project.godot, .godot/global_script_class_cache.cfg in Godot 4) and export again.`
}
