// Godot's ConfigFile text (export_presets.cfg, project.godot): sections, `key=value` lines, values as written.
// Kept as text with line numbers, because the check-preset command names the exact line to change.

export interface ConfigValue {
  readonly key: string
  /** The value text as written (a quoted string keeps its quotes). */
  readonly raw: string
  readonly line: number
}

export interface ConfigSection {
  readonly name: string
  readonly line: number
  readonly values: ReadonlyMap<string, ConfigValue>
}

const BRACKETS: Record<string, number> = { "(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1 }

/** Net bracket depth of a line outside string literals, so multi-line values stay one value. */
const depthChange = (text: string): number => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string
    if (inString) {
      if (ch === "\\") i += 1
      else if (ch === '"') inString = false
    } else if (ch === '"') inString = true
    else depth += BRACKETS[ch] ?? 0
  }
  return depth
}

export const parseConfigFile = (text: string): ReadonlyArray<ConfigSection> => {
  const sections: Array<{ name: string; line: number; values: Map<string, ConfigValue> }> = []
  const lines = text.replace(/^\ufeff/, "").split("\n")
  let open: { value: { key: string; raw: string; line: number }; depth: number } | null = null
  for (let n = 0; n < lines.length; n++) {
    const line = (lines[n] ?? "").replace(/\r$/, "")
    if (open !== null) {
      open.value.raw += `\n${line}`
      open.depth += depthChange(line)
      if (open.depth <= 0) open = null
      continue
    }
    const trimmed = line.trim()
    if (trimmed === "" || trimmed.startsWith(";") || trimmed.startsWith("#")) continue
    const header = /^\[([^\]]+)\]$/.exec(trimmed)
    if (header?.[1] !== undefined) {
      sections.push({ name: header[1].trim(), line: n + 1, values: new Map() })
      continue
    }
    const eq = trimmed.indexOf("=")
    if (eq <= 0) continue
    // Keys before the first section (project.godot's `config_version`, `_global_script_classes`) form a section named "".
    if (sections.length === 0) sections.push({ name: "", line: 0, values: new Map() })
    const section = sections.at(-1)
    if (section === undefined) continue
    const value = { key: trimmed.slice(0, eq).trim(), raw: trimmed.slice(eq + 1).trim(), line: n + 1 }
    section.values.set(value.key, value)
    const depth = depthChange(value.raw)
    if (depth > 0) open = { value, depth }
  }
  return sections
}

/** The string a quoted value stands for (`"a\"b"` → `a"b`); unquoted values are returned trimmed. */
export const unquote = (raw: string): string => {
  const t = raw.trim()
  if (!(t.startsWith('"') && t.endsWith('"') && t.length >= 2)) return t
  return t.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c))
}
