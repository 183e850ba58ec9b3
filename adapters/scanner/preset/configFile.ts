// Godot's ConfigFile text (export_presets.cfg, project.godot): sections, `key=value` lines, values as written.
// Kept as text with line numbers, because the check-preset command names the exact line to change.

import { unescapeGodotString } from "../resource/godotString.ts"

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

/** Where a key ends: its text and the line and column of its `=`; null when the text ends first. */
interface KeyRead {
  readonly key: string
  readonly line: number
  readonly column: number
}

/**
 * A key as the engine reads it (VariantParser::parse_tag_assign_eof, core/variant_parser.cpp of 3.x): characters
 * above space are the key, a quoted string (read with its escapes, lines and all) stands for what was read so
 * far, `;` skips to the end of the line, the key goes on across lines until `=`. The writer quotes a key holding
 * `= " ; [ ]`, spaces or characters outside ASCII (String::property_name_encode), so `"x=[" = 1` is the key `x=[`.
 */
const readKey = (lines: ReadonlyArray<string>, line: number, column: number): KeyRead | null => {
  let key = ""
  let n = line
  let c = column
  while (n < lines.length) {
    const text = lines[n] ?? ""
    const ch = text[c]
    if (ch === undefined || ch === ";") {
      n += 1
      c = 0
    } else if (ch === "=") return { key, line: n, column: c }
    else if (ch === '"') {
      const end = quotedEnd(lines, n, c + 1)
      if (end === null) return null
      key = unescapeGodotString(end.raw)
      n = end.line
      c = end.column + 1
    } else {
      if (ch > " ") key += ch
      c += 1
    }
  }
  return null
}

/** The end of a quoted string opened before `column` of `line` (it may span lines): its raw text and the closing quote. */
const quotedEnd = (lines: ReadonlyArray<string>, line: number, column: number): { raw: string; line: number; column: number } | null => {
  let raw = ""
  for (let n = line, c = column; n < lines.length; n++, c = 0) {
    const text = lines[n] ?? ""
    for (; c < text.length; c++) {
      const ch = text[c] as string
      if (ch === '"') return { raw, line: n, column: c }
      if (ch === "\\" && c + 1 < text.length) {
        raw += text.slice(c, c + 2)
        c += 1
      } else raw += ch
    }
    raw += "\n"
  }
  return null
}

export const parseConfigFile = (text: string): ReadonlyArray<ConfigSection> => {
  const sections: Array<{ name: string; line: number; values: Map<string, ConfigValue> }> = []
  const lines = text.replace(/^\ufeff/, "").split("\n").map((l) => l.replace(/\r$/, ""))
  for (let n = 0; n < lines.length; n++) {
    const trimmed = (lines[n] ?? "").trim()
    if (trimmed === "" || trimmed.startsWith(";")) continue
    const header = /^\[([^\]]+)\]$/.exec(trimmed)
    if (header?.[1] !== undefined) {
      sections.push({ name: header[1].trim(), line: n + 1, values: new Map() })
      continue
    }
    const read = readKey(lines, n, 0)
    if (read === null) break
    n = read.line
    if (read.key === "") continue
    // Keys before the first section (project.godot's `config_version`, `_global_script_classes`) form a section named "".
    if (sections.length === 0) sections.push({ name: "", line: 0, values: new Map() })
    const section = sections.at(-1)
    if (section === undefined) continue
    const value = { key: read.key, raw: (lines[n] ?? "").slice(read.column + 1).trim(), line: n + 1 }
    section.values.set(value.key, value)
    // A multi-line value stays one value until its brackets close.
    for (let depth = depthChange(value.raw); depth > 0 && n + 1 < lines.length; ) {
      n += 1
      value.raw += `\n${lines[n] ?? ""}`
      depth += depthChange(lines[n] ?? "")
    }
  }
  return sections
}

/** The string a quoted value stands for (`"a\"b"` → `a"b`); unquoted values are returned trimmed. */
export const unquote = (raw: string): string => {
  const t = raw.trim()
  if (!(t.startsWith('"') && t.endsWith('"') && t.length >= 2)) return t
  return t.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c))
}
