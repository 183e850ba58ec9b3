import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { judgePath, strs } from "../gdscript/values.ts"
import { extensionOf } from "../pack/packPath.ts"
import { projectBinaryToText } from "../packFiles/projectBinary.ts"
import { parseConfigFile } from "../preset/configFile.ts"
import { unescapeGodotString } from "../resource/godotString.ts"

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

/** Settings whose strings are paths the engine loads (or loads instead of another path). */
const LOADED = /^(autoload\/.+|application\/run\/main_scene|(internationalization\/)?locale\/translations|(internationalization\/)?locale\/translation_remaps|path_remap\/remapped_paths|_global_script_classes|list|gdnative\/singletons)$/
/** Extensions of what a setting's path can load code through, for settings not listed above. */
const LOADABLE = new Set([".gd", ".gdc", ".gde", ".tres", ".res", ".tscn", ".scn", ".translation", ".pck", ".zip", ".cs", ".gdns", ".gdnlib", ".gdextension", ".so", ".dll", ".dylib", ".wasm"])

interface StringAt {
  readonly text: string
  readonly line: number
  /** Followed by `:`: a dictionary key, not a value. */
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
    const isKey = /^\s*:/.test(raw.slice(i + 1, i + 64))
    out.push({ text, line: at, isKey })
  }
  return out
}

/** A translation remap target is `path:locale`; the path is what gets loaded. */
const withoutLocale = (target: string): string => {
  const colon = target.lastIndexOf(":")
  return colon > target.indexOf("://") + 2 && colon > 1 ? target.slice(0, colon) : target
}

/** Inside the pack: res:// paths and Godot 4 resource ids (uid://, resolved through the pack's own uid cache). */
const outsidePack = (path: string): boolean => judgePath(strs([path]), ["res://", "uid://"], true) !== "inside"

/** Findings for the project settings of a pack, given as the text `project.godot` has. */
export const projectSettingsFindings = (text: string, file: string, storedPath: string): ReadonlyArray<Finding> => {
  const findings: Array<Finding> = []
  const hostile = (key: string, path: string, line: number, why: string): void => {
    findings.push(
      finding({
        rule: RULE.hostilePath,
        file,
        storedPath,
        line,
        pattern: `project setting ${key}`,
        message: `The project setting ${key} makes the engine ${why} ${JSON.stringify(path)}, outside the pack: it would load content nobody reviewed. Change the setting in project.godot to a res:// path of a file in the pack, or remove it, and export again.`,
      }),
    )
  }
  for (const section of parseConfigFile(text)) {
    for (const value of section.values.values()) {
      const key = section.name === "" ? value.key : `${section.name}/${value.key}`
      const strings = stringsOf(value.raw, value.line)
      // Settings are decoded with objects allowed (_load_settings_binary): an object given a script runs it at start-up.
      const scripted = /"script":\s*(?!null\b)/.exec(value.raw)
      if (scripted !== null) {
        findings.push(
          finding({
            rule: RULE.hostilePath,
            file,
            storedPath,
            line: value.line + (value.raw.slice(0, scripted.index).match(/\n/g)?.length ?? 0),
            pattern: `project setting ${key}`,
            message: `The project setting ${key} holds an object with a script, which the engine would attach when it reads the settings: code outside any reviewed script. Remove the script from the setting in project.godot and export again.`,
          }),
        )
      }
      if (key === "_global_script_classes" || key === "list") {
        // [{ "base": …, "class": "Name", "path": "res://…" }, …]
        strings.forEach((s, i) => {
          const next = strings[i + 1]
          if (!s.isKey || next === undefined || next.isKey) return
          if (s.text === "path" && outsidePack(next.text)) hostile(key, next.text, next.line, "register a global class from")
          if (s.text === "class" && next.text === ENGINE_GAME) {
            findings.push(
              finding({
                rule: RULE.entrySceneNotEngineGame,
                file,
                storedPath,
                line: next.line,
                pattern: `class_name ${ENGINE_GAME}`,
                message: `The project registers a global class named ${ENGINE_GAME} itself; ${ENGINE_GAME} comes from the platform SDK, which is excluded from the pack, so scripts extending it would extend the pack's own. Remove "class_name ${ENGINE_GAME}" from the script it names and export again.`,
              }),
            )
          }
        })
        continue
      }
      if (LOADED.test(key)) {
        const values = strings.filter((s) => !s.isKey)
        values.forEach((s, i) => {
          // remapped_paths is [from, to, from, to, …]; only the targets are loaded.
          if (key === "path_remap/remapped_paths" && i % 2 === 0) return
          const path = key.endsWith("translation_remaps") ? withoutLocale(s.text) : key.startsWith("autoload/") ? s.text.replace(/^\*/, "") : s.text
          if (outsidePack(path)) hostile(key, path, s.line, key.endsWith("remaps") || key.endsWith("remapped_paths") ? "load, in place of a path of the pack," : "load")
        })
        continue
      }
      for (const s of strings) {
        if (!s.isKey && LOADABLE.has(extensionOf(s.text)) && /^([A-Za-z][A-Za-z0-9+.-]*:\/\/|[/\\~]|[A-Za-z]:)/.test(s.text) && outsidePack(s.text)) hostile(key, s.text, s.line, "load")
      }
    }
  }
  return findings
}

/** The text of a settings file of the pack: project.binary decoded, or project.godot as it is; null when unreadable. */
export const settingsText = (storedPath: string, bytes: Uint8Array, godot: 3 | 4): string | null => {
  if (storedPath.endsWith(".binary")) return projectBinaryToText(bytes, godot)
  return new TextDecoder("utf-8").decode(bytes)
}
