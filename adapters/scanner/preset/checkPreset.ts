import { type ConfigSection, parseConfigFile, unquote } from "./configFile.ts"
import { filterMatches, splitFilter } from "./godotGlob.ts"

// `check-preset`: the export settings of spec §1 for the pack preset, each problem with the exact
// line to write. Pure: the caller says which optional infrastructure folders exist next to the file.

export const PACK_PRESET_NAME = "Summer Game PCK"
/** Folders of the engine starter template that must be excluded when they exist in the project. */
export const TEMPLATE_FOLDERS = ["core", "server", "client"] as const

export interface PresetProblem {
  /** Stable id: preset-missing, preset-export-filter, preset-include-filter, preset-exclude-filter, preset-script-export-mode. */
  readonly rule: string
  /** Line to change (1-based), or where to add the line; null when the file has nowhere to put it. */
  readonly line: number | null
  readonly message: string
  /** The line as it must read. */
  readonly fix: string
}

const quote = (s: string): string => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

const withPattern = (filter: string, pattern: string): string => [...splitFilter(filter), pattern].join(", ")

export const checkPresetText = (text: string, existingTemplateFolders: ReadonlyArray<string>): ReadonlyArray<PresetProblem> => {
  const sections = parseConfigFile(text)
  const presets = sections.filter((s) => /^preset\.\d+$/.test(s.name))
  const preset = presets.find((s) => unquote(s.values.get("name")?.raw ?? "") === PACK_PRESET_NAME)
  if (preset === undefined) {
    const first = presets[0]?.values.get("name")
    return [
      {
        rule: "preset-missing",
        line: first?.line ?? null,
        message: `No export preset is named "${PACK_PRESET_NAME}"${first === undefined ? " (the file has no [preset.N] section)" : `; ${first.raw} is not it`}. The pack must be exported with that preset.`,
        fix: `name=${quote(PACK_PRESET_NAME)}`,
      },
    ]
  }
  const problems: Array<PresetProblem> = []
  const at = (s: ConfigSection, key: string): number => s.values.get(key)?.line ?? s.line
  const value = (key: string): string => unquote(preset.values.get(key)?.raw ?? "")

  if (value("export_filter") !== "all_resources") {
    problems.push({
      rule: "preset-export-filter",
      line: at(preset, "export_filter"),
      message: `export_filter is ${JSON.stringify(value("export_filter"))}; the pack preset must export all resources.`,
      fix: 'export_filter="all_resources"',
    })
  }
  const include = value("include_filter")
  if (!filterMatches(include, "manifest.json")) {
    problems.push({
      rule: "preset-include-filter",
      line: at(preset, "include_filter"),
      message: "include_filter does not list manifest.json, so the export leaves it out (it is not a resource).",
      fix: `include_filter=${quote(withPattern(include, "manifest.json"))}`,
    })
  }
  const exclude = value("exclude_filter")
  const mustExclude = ["sdk", ...TEMPLATE_FOLDERS.filter((f) => existingTemplateFolders.includes(f))]
  const missing = mustExclude.filter((folder) => !filterMatches(exclude, `${folder}/file.gd`))
  if (missing.length > 0) {
    problems.push({
      rule: "preset-exclude-filter",
      line: at(preset, "exclude_filter"),
      message: `exclude_filter does not exclude ${missing.map((f) => `${f}/*`).join(", ")}; those folders are the platform's own infrastructure and local stubs.`,
      fix: `exclude_filter=${quote(missing.reduce((f, folder) => withPattern(f, `${folder}/*`), exclude))}`,
    })
  }
  const mode = preset.values.get("script_export_mode")
  if (mode === undefined || unquote(mode.raw) !== "0") {
    problems.push({
      rule: "preset-script-export-mode",
      line: mode?.line ?? preset.line,
      message:
        mode === undefined
          ? `[${preset.name}] has no script_export_mode line, so Godot uses its default (compiled tokens: 1 in Godot 3, 2 in Godot 4.3+); add it after line ${preset.line}.`
          : `script_export_mode is ${mode.raw}; GDScript must ship as readable text.`,
      fix: "script_export_mode=0",
    })
  }
  return problems
}
