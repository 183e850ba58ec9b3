import { namesRedirect, namesStartupSettings } from "../gdscript/loadableWrites.ts"
import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { judgePath, strs } from "../gdscript/values.ts"
import type { UidResolution } from "../resource/uidCache.ts"
import { type PackLookup, packLookup, untidyFix, untidyWhy } from "../pack/packPath.ts"
import { forEachNode, type Grammar, VariantTextParser } from "../resource/variantText.ts"
import { extensionOf } from "../pack/packPath.ts"
import { type DecodedSettings, readProjectBinary } from "../packFiles/projectBinary.ts"
import { parseConfigFile } from "../preset/configFile.ts"
import { settingBase } from "../packFiles/settingName.ts"
import { type ClassEntry, differingDuplicates, engineClasses, readClassEntries } from "./classRegistrations.ts"
import { isPlatformScript } from "./platformScripts.ts"
import type { PlatformClass } from "../policy/Policy.ts"
import { type PlacingValue, userDataDirFindings } from "./userDataDir.ts"
import { unescapeGodotString } from "../resource/godotString.ts"
import { decodeAsEngine, positionOfByte, strictUtf8Problem } from "../text/godotUtf8.ts"

// The project settings load code and resources before any script of the pack runs, and redirect
// loads: `autoload/*` scripts, the main scene, translations, `locale/translation_remaps` (a path is
// loaded from its target for a locale, core/io/resource_loader.cpp _path_remap),
// `path_remap/remapped_paths`, and the global classes (`_global_script_classes` in Godot 3,
// `.godot/global_script_class_cache.cfg` in Godot 4: `extends Name` loads the path registered for Name).
// Every export writes the settings as `project.binary` (core/config/project_settings.cpp,
// _load_settings_binary: "ECFG", a count, then key and variant pairs); a pack may also carry the
// text `project.godot`, which the engine reads when there is no `project.binary`. A target outside the
// pack loads content nobody reviewed. Findings point at lines of the text as the review pages show
// it (project.binary decoded by packFiles/projectBinary.ts).

const ENGINE_GAME = "EngineGame"

/**
 * Settings whose strings are paths the engine loads (or loads instead of another path). Translations are
 * loaded from `locale/translations` and from `locale/translations_<first two letters of the locale>` and
 * `locale/translations_<locale>` (TranslationServer::load_translations, core/translation.cpp of 3.x; 4.x the
 * same under internationalization/, core/string/translation_server.cpp), so every `translations_<suffix>` key
 * counts: the locale is the player's. Godot 4's `translations_pot_files` is the editor's list of files to
 * extract strings from; no locale standardizes to `pot_files` ("files" is no script, country or variant), so
 * the engine never loads it. The remaps have one key in both versions (ResourceLoader::load_translation_remaps).
 */
const LOADED = /^(autoload\/.+|application\/run\/main_scene|(internationalization\/)?locale\/translations(_(?!pot_files$)[^/]+)?|(internationalization\/)?locale\/translation_remaps|path_remap\/remapped_paths|_global_script_classes|list|gdnative\/singletons)$/
/** Extensions of what a setting's path can load code through, for settings not listed above. */
const LOADABLE = new Set([".gd", ".gdc", ".gde", ".tres", ".res", ".tscn", ".scn", ".translation", ".pck", ".zip", ".cs", ".gdns", ".gdnlib", ".gdextension", ".so", ".dll", ".dylib", ".wasm"])

interface StringAt {
  readonly text: string
  readonly line: number
  /** Followed by `:` (past spaces and a constructor's `)`): a dictionary key, not a value. */
  readonly isKey: boolean
}

/** The string literals of a setting's value as written (`"…"`, `&"…"`, `^"…"`), with their lines. */
const stringsOf = (raw: string, firstLine: number): ReadonlyArray<StringAt> => {
  const out: Array<StringAt> = []
  let line = firstLine
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]
    if (ch === "\n") line += 1
    if (ch !== '"') continue
    const start = i + 1
    const at = line
    for (i = start; i < raw.length && raw[i] !== '"'; i++) {
      if (raw[i] === "\\") i += 1
      else if (raw[i] === "\n") line += 1
    }
    const text = unescapeGodotString(raw.slice(start, i))
    // A key is any value before `:`, however far: a NodePath or StringName too (`NodePath("res://a.tres"): […]`, a
    // ninety-fourth red team's translation remap, which the engine keys by String(key)).
    let after = i + 1
    while (after < raw.length && /[\s)]/.test(raw[after] as string)) after += 1
    out.push({ text, line: at, isKey: raw[after] === ":" })
  }
  return out
}

/** Each setting of a text: the strings of its value and its line, the last of a repeated key winning. */
type StringsBySetting = ReadonlyMap<string, { readonly strings: ReadonlyArray<string>; readonly line: number }>

/**
 * Where the checks' line reader (parseConfigFile, stringsOf) and the engine's own (VariantParser::
 * parse_tag_assign_eof, as variantText.ts follows it) read a settings text apart: the first setting whose key or
 * strings differ, or null. A `; comment` after a section's header or holding a bracket, two settings on one line and
 * strings in comments are read differently by the line reader (a seventy-ninth red team's second `[autoload] ; more`
 * and `Towers="…" ; [` hid the autoload's real script); no editor writes them. A text the engine would refuse fails too.
 */
export const settingsReadApart = (text: string, grammar: Grammar): string | null => {
  const engine = new Map<string, { readonly strings: ReadonlyArray<string>; readonly line: number }>()
  let section = ""
  let twice: string | null = null
  const parser = new VariantTextParser(
    grammar,
    {
      tag: (t) => {
        section = t.name
      },
      assign: (key, value, at) => {
        const strings: Array<string> = []
        forEachNode(value, (n) => {
          if (n.k === "str") strings.push(n.value)
        })
        const name = section === "" ? key : `${section}/${key}`
        const first = engine.get(name)
        if (first !== undefined && twice === null) twice = `line ${at.line}: the setting ${JSON.stringify(name)} is set a second time (first on line ${first.line}); the engine keeps its place from the first and its value from the last, which no editor writes; save the settings in the Godot editor`
        engine.set(name, { strings, line: at.line })
      },
    },
    { simpleTags: true },
  )
  parser.feed(new TextEncoder().encode(text))
  parser.finish()
  if (twice !== null) return twice
  const read = new Map<string, { readonly strings: ReadonlyArray<string>; readonly line: number }>()
  for (const s of parseConfigFile(text)) {
    for (const v of s.values.values()) read.set(s.name === "" ? v.key : `${s.name}/${v.key}`, { strings: stringsOf(v.raw, v.line).map((x) => x.text), line: v.line })
  }
  const apart = firstApart(engine, read) ?? firstApart(read, engine)
  return apart === null ? null : `line ${(engine.get(apart) ?? read.get(apart))?.line ?? 1}: the setting ${JSON.stringify(apart)} is written so that the engine reads it otherwise than a line reader would (a comment after a section header or holding a bracket, two settings on one line, a string in a comment); save the settings in the Godot editor`
}

/** The autoload a setting `autoload/<name>…` makes: the part after `autoload/` up to the next `/` (`Main::start`: `get_slicec('/', 1)`). */
const autoloadName = (key: string): string => key.slice("autoload/".length).split("/")[0] ?? ""

/**
 * Two settings naming one autoload (`autoload/Towers` and `autoload/Towers/x`: the engine names an autoload by the part
 * after `autoload/` up to the next `/`), or null. The engine adds the autoloads in the order their settings were first
 * set and the last of a name becomes the global (main/main.cpp `Main::start`): an eighty-fourth red team's text
 * project.godot set `autoload/Towers` on top, `Towers/x` and `Towers` again under `[autoload]`, so the engine's Towers
 * was `Towers/x`'s script, the scanner's the last line's. No editor writes either; feature-tagged keys
 * (`Towers.Android`) are one setting's overrides, not another autoload.
 */
export const autoloadNameClash = (text: string): string | null => {
  const keys = new Map<string, { readonly key: string; readonly line: number }>()
  for (const section of parseConfigFile(text)) {
    for (const value of section.values.values()) {
      const key = settingBase(section.name === "" ? value.key : `${section.name}/${value.key}`)
      if (!key.startsWith("autoload/")) continue
      const name = autoloadName(key)
      const first = keys.get(name)
      if (first === undefined) keys.set(name, { key, line: value.line })
      else if (first.key !== key) return `line ${value.line}: the settings ${JSON.stringify(first.key)} (line ${first.line}) and ${JSON.stringify(key)} both name the autoload ${JSON.stringify(name)}, and which one the engine runs depends on the order it first read them; keep one autoload of each name`
    }
  }
  return null
}

/** The first setting of `a` that `b` lacks or reads with other strings. */
const firstApart = (a: StringsBySetting, b: StringsBySetting): string | null => {
  for (const [name, { strings }] of a) {
    const other = b.get(name)?.strings
    if (other === undefined || other.length !== strings.length || other.some((x, i) => x !== strings[i])) return name
  }
  return null
}

/** A translation remap target is `path:locale`; the path is what gets loaded. */
const withoutLocale = (target: string): string => {
  const colon = target.lastIndexOf(":")
  return colon > target.indexOf("://") + 2 && colon > 1 ? target.slice(0, colon) : target
}

/** Inside the pack: res:// paths and Godot 4 resource ids (uid://, resolved through the pack's own uid cache). */
const outsidePack = (path: string): boolean => judgePath(strs([path]), ["res://", "uid://"], true) !== "inside"

/** How the engine looks up a setting's path (relative ones are under res://: packLookup); null for uid://. */
const packPathOf = (path: string, grammar: Grammar): PackLookup | null => (path.startsWith("uid://") ? null : packLookup(path, null, grammar))

/**
 * Settings whose value is a resource or file the running game loads: every GLOBAL_DEF of a path the
 * engine itself loads (PROPERTY_HINT_FILE in core/project_settings.cpp, core/register_core_types.cpp,
 * main/main.cpp, scene/register_scene_types.cpp, scene/main/scene_tree.cpp of 3.x; the same files and
 * scene/theme/theme_db.cpp of 4.x; listed in docs/scanner.md). Any resource can carry a script, so each
 * must be a file of the pack. Editor-only settings (editor/*, native icons, mono/dotnet, the movie
 * writer) are not read by an exported game and are not listed.
 */
const PATH_SETTINGS: ReadonlySet<string> = new Set([
  "application/boot_splash/image",
  "application/config/icon",
  "audio/default_bus_layout",
  "audio/buses/default_bus_layout",
  "display/mouse_cursor/custom_image",
  "gui/theme/custom",
  "gui/theme/custom_font",
  "rendering/environment/default_environment",
  "rendering/environment/defaults/default_environment",
  "network/ssl/certificates",
  "network/tls/certificate_bundle_override",
  "rendering/vrs/texture",
  "xr/openxr/default_action_map",
])

/** Where the engine writes its log file (3.x, 4.x): only user:// keeps it in the game's own folder. */
export const LOG_PATHS: ReadonlySet<string> = new Set(["logging/file_logging/log_path", "debug/file_logging/log_path"])

/**
 * Findings for the project settings of a pack, given as the text `project.godot` has. `inPack` says whether
 * a res:// path is a file of the pack: a setting that loads one it lacks makes the engine read it from the
 * disk (next to the game or in the working folder), as a load() would. `reservedPaths` (the policy's) are the
 * platform's classes: one registered at its listed path that the pack lacks is the platform's (platformScripts.ts).
 * `primary` says the engine reads this file for its settings (project.binary, or project.godot without one): it must
 * name the project (userDataDir.ts).
 */
export const projectSettingsFindings = (
  text: string,
  file: string,
  storedPath: string,
  inPack: (path: string) => boolean = () => true,
  uids?: (uid: string) => UidResolution,
  grammar: Grammar = uids === undefined ? 3 : 4,
  platformClasses: ReadonlyArray<PlatformClass> = [],
  primary = false,
  /** Whether the engine finds a path remap's target (PackContents.hasPathRemapTarget): no second remap applies to it. */
  hasPathRemapTarget: (path: string) => boolean = inPack,
): ReadonlyArray<Finding> => {
  const findings: Array<Finding> = []
  /** A pack-hostile-path finding about a setting (pattern `project setting <key>`). */
  const flag = (key: string, line: number, message: string): void => {
    findings.push(finding({ rule: RULE.hostilePath, file, storedPath, line, pattern: `project setting ${key}`, message }))
  }
  const hostile = (key: string, path: string, line: number, why: string): void =>
    flag(key, line, `The project setting ${key} makes the engine ${why} ${JSON.stringify(path)}, outside the pack: it would load content nobody reviewed. Change the setting in project.godot to a res:// path of a file in the pack, or remove it, and export again.`)
  /** A path the engine loads: outside the pack, or a res:// path the pack lacks. */
  const loads = (key: string, path: string, line: number, why: string, found = inPack): void => {
    // Godot 4 resolves a uid:// through the uid cache (ProjectSettings::fix_autoload_paths, ResourceLoader::_load).
    if (uids !== undefined && path.startsWith("uid://")) {
      const resolved = uids(path)
      if ("path" in resolved) return loads(key, resolved.path, line, `${why} (through ${path})`, found)
      return flag(key, line, `The project setting ${key} makes the engine ${why} ${JSON.stringify(path)}: ${resolved.problem}. Export the pack again with a stock Godot 4 editor (it writes the cache), or use the res:// path of a file in the pack.`)
    }
    const local = packPathOf(path, grammar)
    const untidy = local?.untidy ?? null
    if (untidy !== null) {
      return flag(key, line, `The project setting ${key} makes the engine ${why} ${JSON.stringify(path)}: ${untidyWhy(untidy)}. ${untidyFix(untidy)} in project.godot and export again.`)
    }
    if (outsidePack(path)) return hostile(key, path, line, why)
    if (local !== null && !found(local.path)) {
      flag(key, line, `The project setting ${key} makes the engine ${why} ${JSON.stringify(path)}, and the pack has no such file: the engine would read it from the disk (next to the game or in the working folder), content nobody reviewed. Include the file in the export, or change the setting in project.godot to a file of the pack, and export again.`)
    }
  }
  let customOn: number | null = null
  // A feature override may stand in for any of these settings on the player's machine: every value counts.
  const names: Array<PlacingValue> = []
  const customNames: Array<PlacingValue> = []
  const sections = parseConfigFile(text)
  for (const section of sections) {
    for (const value of section.values.values()) {
      const key = section.name === "" ? value.key : `${section.name}/${value.key}`
      const base = settingBase(key)
      const strings = stringsOf(value.raw, value.line)
      const first = strings.find((x) => !x.isKey)
      // Settings are decoded with objects allowed (_load_settings_binary): an object given a script runs it at start-up.
      const scripted = /"script":\s*(?!null\b)/.exec(value.raw)
      if (scripted !== null) {
        const line = value.line + (value.raw.slice(0, scripted.index).match(/\n/g)?.length ?? 0)
        flag(key, line, `The project setting ${key} holds an object with a script, which the engine would attach when it reads the settings: code outside any reviewed script. Remove the script from the setting in project.godot and export again.`)
      }
      // Android and iOS read `res://override.cfg` over the settings, other platforms the one beside the game, never the
      // pack's (ProjectSettings::_setup): an autoload or class list in it makes the code a name runs depend on the
      // player's platform (a seventy-eighth red team's decoy `Towers`).
      if (storedPath === OVERRIDE_FILE && (base.startsWith("autoload/") || base === "_global_script_classes")) {
        flag(key, value.line, `res://override.cfg in the pack sets ${key}: Android and iOS read that file over the project settings and other platforms do not, so which script runs under that name depends on the player's platform. Put the setting in project.godot, leave override.cfg out of the export (its exclude filter), and export again.`)
      }
      if (base === "application/config/project_settings_override") {
        if (first !== undefined && first.text !== "") {
          flag(base, first.line, `The project setting ${key} makes the engine read more settings from ${JSON.stringify(first.text)} at every start: settings nobody reviewed (an autoload there runs code; a game can write that file to user:// and change what the next start runs). Remove the setting from project.godot and put the settings in project.godot itself, then export again.`)
        }
        continue
      }
      if (LOG_PATHS.has(base)) {
        if (first !== undefined && !first.text.startsWith("user://")) {
          flag(base, first.line, `The project setting ${key} makes the engine write its log to ${JSON.stringify(first.text)}, outside the game's user:// folder (a relative or res:// path lands next to the game or in the working folder). Set it to a path under user:// (the default is "user://logs/godot.log") and export again.`)
        } else if (first !== undefined && namesRedirect(first.text)) {
          // A sixtieth red team's: what the game prints lands in a redirect the engine reads beside a res:// path.
          flag(base, first.line, `The project setting ${key} makes the engine write its log to ${JSON.stringify(first.text)}, a .remap or .import name: the engine reads such a file beside a res:// path from the disk when the pack has none (the working folder may be the game's user:// folder), and the game's printed lines can name any file there. Keep the log's name ending in .log (the default is "user://logs/godot.log") and export again.`)
        } else if (first !== undefined && namesStartupSettings(first.text)) {
          // A ninety-seventh red team's: printed settings lines land in a project.godot the engine reads at the next start.
          flag(base, first.line, `The project setting ${key} makes the engine write its log to ${JSON.stringify(first.text)}, a file the engine reads by itself at start-up from the working folder when the pack has none (the working folder may be the game's user:// folder), so the game's printed lines become its settings or bus layout at the next start. Keep the log's name ending in .log (the default is "user://logs/godot.log") and export again.`)
        }
        continue
      }
      if (base === "application/config/use_custom_user_dir") {
        if (customOn === null && value.raw.trim() === "true") customOn = value.line
        continue
      }
      if (base === "application/config/custom_user_dir_name" || base === "application/config/name") {
        const placing = { key, line: first?.line ?? value.line, text: stringValue(value.raw, first) }
        ;(base === "application/config/name" ? names : customNames).push(placing)
        continue
      }
      if (PATH_SETTINGS.has(base)) {
        for (const p of strings) if (!p.isKey && p.text !== "") loads(key, p.text, p.line, "load")
        continue
      }
      // A 4.x global shader parameter of a sampler type: the engine loads its "value" as a resource at start
      // (global_shader_parameters_load_settings: a fifty-third red team's `{"type": "sampler2D", "value": "payload.tres"}`).
      if (base.startsWith("shader_globals/") && strings.some((p) => !p.isKey && p.text.startsWith("sampler"))) {
        strings.forEach((p, i) => {
          const previous = strings[i - 1]
          if (!p.isKey && p.text !== "" && previous?.isKey === true && previous.text === "value") loads(key, p.text, p.line, "load")
        })
        continue
      }
      if (base === "_global_script_classes" || base === "list") {
        const platform = (name: string | null, path: string): boolean => isPlatformScript(name, path, platformClasses, inPack)
        judgeRegistrations(key, readClassEntries(value.raw, value.line, base === "list" ? 4 : grammar), { file, storedPath, flag, hostile, uids, platform, push: (f) => findings.push(f) })
        continue
      }
      // A translation remap of a script or a scene: every load of the path, an autoload's and a scene's script
      // included, gets the locale's target instead (ResourceLoader::_path_remap, set up before the autoloads), so which
      // code runs depends on the player's language (a seventy-sixth red team's, attackProjects127.ts). Remaps are for
      // localised media (textures, audio, fonts).
      // So does `path_remap/remapped_paths` (pairs: from, to; ResourceLoader::load_path_remaps), for every player.
      if (base.endsWith("translation_remaps") || base === "path_remap/remapped_paths") {
        for (const s of strings) {
          const path = s.isKey || base === "path_remap/remapped_paths" ? s.text : withoutLocale(s.text)
          if (REMAP_REFUSED.has(extensionOf(path))) flag(key, s.line, `The project setting ${key} remaps ${JSON.stringify(path)}, a script or a scene: the engine loads another file in its place (by the player's language, for a translation remap), so the code that runs is not the one reviewed by its path. Remap only localised media (textures, audio, fonts) and export again.`)
        }
      }
      // A `key.<feature>` override is the key where the feature applies (settingName.ts).
      if (LOADED.test(base)) {
        const values = strings.filter((s) => !s.isKey)
        values.forEach((s, i) => {
          // remapped_paths is [from, to, from, to, …]; only the targets are loaded.
          if (base === "path_remap/remapped_paths" && i % 2 === 0) return
          const path = base.endsWith("translation_remaps") ? withoutLocale(s.text) : base.startsWith("autoload/") ? s.text.replace(/^\*/, "") : s.text
          loads(key, path, s.line, base.endsWith("remaps") || base.endsWith("remapped_paths") ? "load, in place of a path of the pack," : "load", base === "path_remap/remapped_paths" ? hasPathRemapTarget : inPack)
        })
        continue
      }
      for (const s of strings) {
        if (!s.isKey && LOADABLE.has(extensionOf(s.text)) && /^([A-Za-z][A-Za-z0-9+.-]*:\/\/|[/\\~]|[A-Za-z]:)/.test(s.text) && outsidePack(s.text)) hostile(key, s.text, s.line, "load")
      }
    }
  }
  const missingAt = primary ? (sections.find((section) => section.name === "application")?.line ?? 1) : null
  findings.push(...userDataDirFindings({ names, customNames, customOn, godot: grammar, missingAt }, file, storedPath))
  return findings
}

/**
 * The files the settings' path and translation remaps send an original path to (ResourceLoader::_path_remap): the
 * engine loads each target under the original's path (`_load(remapped, local_path, …)`), so the target's relative
 * paths are resolved from the original's folder (a ninety-second red team's `.tres` remapped from another folder,
 * whose built-in script's `preload("b.gd")` named a file beside the original). Feature overrides count too.
 */
export const settingsRemaps = (text: string): { readonly remaps: ReadonlyArray<SettingsRemap>; readonly pathRemapKeys: ReadonlyArray<string> } => {
  const out: Array<SettingsRemap> = []
  /** Every key holding path remaps (`path_remap/remapped_paths` and its feature overrides), empty ones too. */
  const pathRemapKeys: Array<string> = []
  for (const section of parseConfigFile(text)) {
    for (const value of section.values.values()) {
      const key = section.name === "" ? value.key : `${section.name}/${value.key}`
      const base = settingBase(key)
      const strings = stringsOf(value.raw, value.line)
      if (base === "path_remap/remapped_paths") {
        pathRemapKeys.push(key)
        const paths = strings.filter((s) => !s.isKey)
        for (let i = 0; i + 1 < paths.length; i += 2) out.push({ original: paths[i]?.text ?? "", target: paths[i + 1]?.text ?? "", pathRemapKey: key })
      } else if (base.endsWith("translation_remaps")) {
        let original: string | null = null
        for (const s of strings) {
          if (s.isKey) original = s.text
          else if (original !== null) out.push({ original, target: withoutLocale(s.text), pathRemapKey: null })
        }
      }
    }
  }
  return { remaps: out, pathRemapKeys }
}

/**
 * Every setting's values by its whole key, dots and all (`game/save.pc`, `game.v2/save`): the text of a string, null
 * for a value of any other type. ProjectSettings::_set keeps each under its whole name and only points the part
 * before the first dot at it where a feature applies (settingName.ts), so `get_setting(k)` gives the value of `k`
 * itself or, for a `k` without a dot, of any `k.<features>` (PackModel.settingValue).
 */
export const settingValues = (text: string): ReadonlyMap<string, ReadonlyArray<string | null>> => {
  const out = new Map<string, Array<string | null>>()
  for (const section of parseConfigFile(text)) {
    for (const value of section.values.values()) {
      const key = section.name === "" ? value.key : `${section.name}/${value.key}`
      const list = out.get(key) ?? []
      list.push(stringValue(value.raw, stringsOf(value.raw, value.line)[0]))
      out.set(key, list)
    }
  }
  return out
}

/** One remap of the settings: `pathRemapKey` is the key (with its feature tag, if any) of a path remap; null for a translation remap. */
export interface SettingsRemap {
  readonly original: string
  readonly target: string
  readonly pathRemapKey: string | null
}

/** What a translation or path remap may not name: scripts and scenes (the code that runs would not be the one reviewed). */
const REMAP_REFUSED: ReadonlySet<string> = new Set([".gd", ".gdc", ".gde", ".cs", ".vs", ".tscn", ".scn", ".escn"])

/** Settings whose findings are about where the game writes files rather than what it loads. */
export const FILESYSTEM_SETTINGS: ReadonlySet<string> = new Set(["application/config/name", "application/config/custom_user_dir_name", ...LOG_PATHS])

/**
 * A setting's value as the engine's text of it when it is a string (`"…"`, `&"…"`, `^"…"`, `NodePath("…")`,
 * `StringName("…")`); null for any other type, whose text (a number, `True`, `[…]`, `Null`) is never empty nor dots.
 */
const stringValue = (raw: string, first: StringAt | undefined): string | null =>
  first !== undefined && /^\s*(?:[&^]?"|(?:NodePath|StringName)\s*\(\s*")/.test(raw) ? first.text : null

/**
 * The text of a settings file of the pack as the engine decodes it (godotUtf8.ts): project.binary decoded, or
 * project.godot as it is; with the lines whose bytes are not strict UTF-8. Null when unreadable.
 */
export const settingsText = (storedPath: string, bytes: Uint8Array, godot: 3 | 4): DecodedSettings | null => {
  if (storedPath.endsWith(".binary")) return readProjectBinary(bytes, godot)
  const problem = strictUtf8Problem(bytes)
  return { text: decodeAsEngine(bytes, godot), notStrictLines: problem === null ? [] : [positionOfByte(bytes, problem.offset).line] }
}

/** The settings file some platforms read from the pack after the project's own. */
const OVERRIDE_FILE = "res://override.cfg"

/** Where a registration list is read from: the key of each file that holds one (Godot 4's class cache: `list`). */
export const REGISTRATION_KEYS: ReadonlyMap<string, string> = new Map([
  ["res://project.godot", "_global_script_classes"],
  ["res://project.binary", "_global_script_classes"],
  ["res://override.cfg", "_global_script_classes"],
  ["res://.godot/global_script_class_cache.cfg", "list"],
])

/**
 * The class registrations of a settings file's text (REGISTRATION_KEYS), every Dictionary in order: the key's own
 * list, then those of its feature overrides (`_global_script_classes.pc`), any of which the engine may read instead.
 */
export const classEntriesOf = (text: string, storedPath: string, grammar: Grammar): ReadonlyArray<ClassEntry> => {
  const key = REGISTRATION_KEYS.get(storedPath)
  const own = parseConfigFile(text).filter((section) => section.name === "").flatMap((section) => [...section.values.values()])
  const lists = [...own.filter((v) => v.key === key), ...own.filter((v) => v.key !== key && settingBase(v.key) === key)]
  return lists.flatMap((value) => readClassEntries(value.raw, value.line, key === "list" ? 4 : grammar))
}

interface RegistrationJudge {
  readonly file: string
  readonly storedPath: string
  readonly flag: (key: string, line: number, message: string) => void
  readonly hostile: (key: string, path: string, line: number, why: string) => void
  readonly uids: ((uid: string) => UidResolution) | undefined
  /** Whether a class registered at a path is the platform's own (platformScripts.ts). */
  readonly platform: (name: string | null, path: string) => boolean
  readonly push: (f: Finding) => void
}

/**
 * Every entry of a registration list: each `path` outside the pack (or an unresolvable uid://) is an error whether
 * the engine registers the entry or not, a value of a required key that is not text cannot be judged, the SDK's
 * EngineGame must not be registered but at the platform's own script (every path of the entry a file of a reserved
 * folder the pack lacks: the editor's registration of the excluded SDK), and a name registered twice with
 * different entries is reported at the entry the engine keeps (the last). A res:// path the pack lacks matters where the engine loads the class
 * (globalClassCheck.ts).
 */
const judgeRegistrations = (key: string, entries: ReadonlyArray<ClassEntry>, judge: RegistrationJudge): void => {
  const { file, storedPath, flag, hostile, uids, platform, push } = judge
  for (const entry of entries) {
    for (const p of entry.paths) {
      const resolved: UidResolution = uids !== undefined && p.text.startsWith("uid://") ? uids(p.text) : { path: p.text }
      if ("problem" in resolved) flag(key, p.line, `The project setting ${key} makes the engine register a global class from ${JSON.stringify(p.text)}: ${resolved.problem}. Export the pack again with a stock Godot 4 editor (it writes the cache), or use the res:// path of a file in the pack.`)
      else if (outsidePack(resolved.path)) hostile(key, resolved.path, p.line, "register a global class from")
    }
    for (const o of entry.opaque) flag(key, o.line, `The project setting ${key} registers a global class whose ${o.key} is not text: the engine converts the value to text and may register or load a class the scanner cannot tell. Write the ${o.key} as a string (the editor does) and export again.`)
    if (entry.name === ENGINE_GAME && !(entry.paths.length > 0 && entry.paths.every((p) => platform(entry.name, p.text)))) {
      push(
        finding({
          rule: RULE.entrySceneNotEngineGame,
          file,
          storedPath,
          line: entry.classLine,
          pattern: `class_name ${ENGINE_GAME}`,
          message: `The project registers a global class named ${ENGINE_GAME} itself; ${ENGINE_GAME} comes from the platform SDK, which is excluded from the pack, so scripts extending it would extend the pack's own. Remove "class_name ${ENGINE_GAME}" from the script it names and export again.`,
        }),
      )
    }
  }
  const kept = engineClasses(entries)
  for (const [name, list] of differingDuplicates(entries)) {
    const used = kept.get(name)
    const shown = list.map((e) => `${JSON.stringify(e.path)} (base ${e.base})`).join(", ")
    flag(key, used?.line ?? list.at(-1)?.line ?? 0, `The project setting ${key} registers the global class ${name} ${list.length} times with different scripts: ${shown}. The engine keeps the last one it accepts (${used === undefined ? "none" : JSON.stringify(used.path)}), while a reader of the settings may take another: a script the pack appears to use in its place. Register each class once (the editor writes one entry a class) and export again.`)
  }
}

/** A setting's value that is one string: `"…"`, a StringName `&"…"` or `NodePath( "…" )`. */
const PLAIN_PATH = /^(&?"(?:[^"\\]|\\.)*"|NodePath\(\s*"(?:[^"\\]|\\.)*"\s*\))$/

/**
 * The autoloads the project settings make global names (`[autoload]` entries whose path starts with `*`):
 * name → res:// path. The engine looks such a name up before the registered global classes.
 */
export const autoloadSingletons = (text: string): ReadonlyMap<string, string> => autoloadEntries(text, true)

/**
 * Every autoload's name and res:// path, or only the singletons' (`*`). A class may extend any autoload by its name
 * (3.x gdscript_parser.cpp _determine_inheritance reads every `autoload/` setting).
 */
export const autoloadEntries = (text: string, singletonsOnly: boolean): ReadonlyMap<string, string> => {
  const map = new Map<string, string>()
  // An autoload with a feature-tagged key (`autoload/Towers.Android`) runs one script or the other, by the player's
  // machine (ProjectSettings::_set overrides the base only where the feature is present): not pinned to one, so left
  // out (a seventy-third red team's `Towers.nofeat` decoy, which the scanner took for the autoload's script).
  const varies = new Set<string>()
  for (const section of parseConfigFile(text)) {
    for (const value of section.values.values()) {
      const raw = section.name === "" ? value.key : `${section.name}/${value.key}`
      const key = settingBase(raw)
      if (!key.startsWith("autoload/")) continue
      if (key !== raw) varies.add(autoloadName(key))
      // Only a string is a path: of any other value (an Object, an Array) the engine's text is no file (and project.binary
      // may hold one the engine refuses to decode: an eighty-first red team's), so the autoload's script is not known.
      if (!PLAIN_PATH.test(value.raw.trim())) {
        map.set(autoloadName(key), "")
        continue
      }
      const path = stringsOf(value.raw, value.line).find((s) => !s.isKey)?.text
      if (path === undefined || (singletonsOnly && !path.startsWith("*"))) continue
      const bare = path.startsWith("*") ? path.slice(1) : path
      // The engine names an autoload by the segment after `autoload/` only (`get_slice("/", 1)`: `autoload/OS/x` is OS,
      // a fifty-second red team's).
      map.set(autoloadName(key), bare.startsWith("res://") ? bare : `res://${bare}`)
    }
  }
  for (const name of varies) map.delete(name)
  return map
}

/** Where Godot 4 lists the GDExtensions it loads at start, one path a line (GDExtensionManager::load_extensions). */
export const EXTENSION_LIST = "res://.godot/extension_list.cfg"

/**
 * The extension list's paths: each is loaded as native code before any script runs. One outside the pack, or a
 * res:// path the pack lacks (read from the disk), loads a library nobody reviewed; one in the pack is judged by
 * the native-code rules.
 */
export const extensionListFindings = (text: string, storedPath: string, inPack: (path: string) => boolean): ReadonlyArray<Finding> =>
  text.split("\n").flatMap((raw, i) => {
    const path = raw.trim()
    if (path === "") return []
    const local = outsidePack(path) ? null : packPathOf(path, 4)
    if (local !== null && local.untidy === null && inPack(local.path)) return []
    return [
      finding({
        rule: RULE.hostilePath,
        file: storedPath,
        storedPath,
        line: i + 1,
        pattern: "extension_list.cfg target",
        message: `${storedPath} makes the engine load the native extension ${JSON.stringify(path)} at start, ${local === null ? "from outside the pack" : "and the pack has no such file (the engine would read it from the disk)"}: native code nobody reviewed. Packs may contain only game content and GDScript; remove the file.`,
      }),
    ]
  })
