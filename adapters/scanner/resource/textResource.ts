import { MAX_FIELD_BYTES } from "../io/ByteCursor.ts"
import { MalformedData } from "../io/errors.ts"
import { unescapeGodotString } from "./godotString.ts"
import type { SceneFacts, SceneNodeType, ScriptReference } from "./SceneFacts.ts"

// A streaming reader for text scenes and resources (.tscn/.tres, Godot's ConfigFile-like format).
// It keeps only what the checks need: built-in script sources with their position in the file,
// node types, the root node's script and the external-resource table. Memory stays bounded by
// the largest built-in script, however large the file (meshes and tile data are skipped).

export interface TextEmbeddedScript {
  readonly subResource: string
  readonly source: string
  /** The escaped text as it appears in the file, for mapping script positions back to file positions. */
  readonly raw: string
  /** Where the first character of the string content sits in the file (1-based). */
  readonly start: { readonly line: number; readonly column: number }
}

export interface TextResourceFacts extends SceneFacts {
  readonly fileTag: string
  readonly scripts: ReadonlyArray<TextEmbeddedScript>
  /** `type` of every sub-resource and of the main resource, with its id (the main resource's is ""). */
  readonly classes: ReadonlyArray<{ readonly subResource: string; readonly className: string }>
}

interface Section {
  readonly tag: string
  readonly attributes: ReadonlyMap<string, string>
  readonly line: number
  readonly column: number
}

const MAX_HEADER = 64 * 1024
const MAX_KEY = 1024
const MAX_VALUE_PREFIX = 1024

/** `key=value` pairs of a section header; values keep their quotes stripped and escapes resolved. */
const parseHeader = (text: string, line: number, column: number): Section => {
  const inner = text.replace(/^\[\s*/, "").replace(/\]\s*$/, "")
  const tag = /^[^\s\]]+/.exec(inner)?.[0] ?? ""
  const attributes = new Map<string, string>()
  const pair = /([A-Za-z_][\w/]*)\s*=\s*("(?:[^"\\]|\\.)*"|[A-Za-z_]\w*\s*\([^)]*\)|[^\s\]]+)/gs
  for (const m of inner.slice(tag.length).matchAll(pair)) {
    const [, key, value] = m
    if (key === undefined || value === undefined) continue
    attributes.set(key, value.startsWith('"') ? unescapeGodotString(value.slice(1, -1)) : value.trim())
  }
  return { tag, attributes, line, column }
}

/** `ExtResource( 1 )`, `ExtResource("1_abc")`, `SubResource("GDScript_x")` → kind and id. */
export const parseResourceCall = (value: string): { readonly kind: "Ext" | "Sub"; readonly id: string } | null => {
  const m = /^(Ext|Sub)Resource\s*\(\s*(?:"((?:[^"\\]|\\.)*)"|([^\s)]+))\s*\)/.exec(value.trim())
  if (m === null) return null
  return { kind: m[1] === "Ext" ? "Ext" : "Sub", id: unescapeGodotString(m[2] ?? m[3] ?? "") }
}

type Mode = "lineStart" | "header" | "afterHeader" | "comment" | "statement"

export class TextResourceReader {
  #line = 1
  #column = 1
  #mode: Mode = "lineStart"
  #inString = false
  #escape = false
  #depth = 0
  #buffer = ""
  #bufferLine = 0
  #bufferColumn = 0
  #key = ""
  #sawEquals = false
  #value = ""
  #stringCount = 0
  #capture: Array<string> | null = null
  #captureLength = 0
  #captureStart = { line: 0, column: 0 }
  #section: Section | null = null
  #fileTag = ""
  #mainType = ""
  readonly #externals = new Map<string, string>()
  readonly #scripts: Array<TextEmbeddedScript> = []
  readonly #classes: Array<{ subResource: string; className: string }> = []
  readonly #nodeTypes: Array<SceneNodeType> = []
  #rootSection: Section | null = null
  #rootScript: ScriptReference | null = null
  #rootInstance: string | null = null

  feed(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string
      this.#step(ch)
      if (ch === "\n") {
        this.#line += 1
        this.#column = 1
      } else this.#column += 1
    }
  }

  #step(ch: string): void {
    if (this.#inString) return this.#stringChar(ch)
    switch (this.#mode) {
      case "lineStart":
        if (ch === " " || ch === "\t" || ch === "\r" || ch === "\n" || ch === "\ufeff") return
        if (ch === ";") {
          this.#mode = "comment"
          return
        }
        if (ch === "[") {
          this.#mode = "header"
          this.#buffer = ch
          this.#bufferLine = this.#line
          this.#bufferColumn = this.#column
          return
        }
        this.#mode = "statement"
        this.#key = ""
        this.#value = ""
        this.#sawEquals = false
        this.#depth = 0
        this.#stringCount = 0
        this.#bufferLine = this.#line
        return this.#statementChar(ch)
      case "comment":
      case "afterHeader":
        if (ch === "\n") this.#mode = "lineStart"
        return
      case "header":
        if (this.#buffer.length < MAX_HEADER) this.#buffer += ch
        if (ch === '"') this.#openString()
        else if (ch === "]") {
          this.#section = parseHeader(this.#buffer, this.#bufferLine, this.#bufferColumn)
          this.#enterSection(this.#section)
          this.#mode = "afterHeader"
        }
        return
      case "statement":
        return this.#statementChar(ch)
    }
  }

  #statementChar(ch: string): void {
    if (ch === "\n" && this.#depth <= 0) {
      this.#endStatement()
      this.#mode = "lineStart"
      return
    }
    if (!this.#sawEquals) {
      if (ch === "=") this.#sawEquals = true
      else if (this.#key.length < MAX_KEY) this.#key += ch
      if (ch === '"') this.#openString()
      return
    }
    if (this.#value.length < MAX_VALUE_PREFIX) this.#value += ch
    if (ch === '"') this.#openString()
    else if (ch === "(" || ch === "[" || ch === "{") this.#depth += 1
    else if (ch === ")" || ch === "]" || ch === "}") this.#depth -= 1
  }

  #openString(): void {
    this.#inString = true
    this.#escape = false
    const key = this.#key.trim()
    if (this.#mode === "statement" && this.#sawEquals && this.#stringCount === 0 && key === "script/source" && this.#inScriptSection()) {
      this.#capture = []
      this.#captureLength = 0
      this.#captureStart = { line: this.#line, column: this.#column + 1 }
    }
    this.#stringCount += 1
  }

  #stringChar(ch: string): void {
    if (this.#mode === "header" && this.#buffer.length < MAX_HEADER) this.#buffer += ch
    else if (this.#mode === "statement" && this.#value.length < MAX_VALUE_PREFIX && this.#sawEquals) this.#value += ch
    if (!this.#escape && ch === '"') {
      this.#inString = false
      if (this.#capture !== null) this.#finishCapture()
      return
    }
    this.#escape = !this.#escape && ch === "\\"
    if (this.#capture !== null) {
      this.#captureLength += 1
      if (this.#captureLength > MAX_FIELD_BYTES) {
        throw new MalformedData(`the built-in script at line ${this.#captureStart.line} is longer than ${MAX_FIELD_BYTES} characters`)
      }
      this.#capture.push(ch)
    }
  }

  #finishCapture(): void {
    const raw = (this.#capture ?? []).join("")
    this.#capture = null
    const section = this.#section
    const id = section?.tag === "sub_resource" ? (section.attributes.get("id") ?? "") : ""
    this.#scripts.push({ subResource: id, source: unescapeGodotString(raw), raw, start: this.#captureStart })
  }

  #inScriptSection(): boolean {
    const s = this.#section
    if (s === null) return false
    if (s.tag === "sub_resource") return s.attributes.get("type") === "GDScript"
    return s.tag === "resource" && this.#mainType === "GDScript"
  }

  #enterSection(s: Section): void {
    if (s.tag === "gd_scene" || s.tag === "gd_resource") {
      this.#fileTag = s.tag
      this.#mainType = s.attributes.get("type") ?? (s.tag === "gd_scene" ? "PackedScene" : "")
      if (s.tag === "gd_resource") this.#classes.push({ subResource: "", className: this.#mainType })
    } else if (s.tag === "ext_resource") {
      const id = s.attributes.get("id")
      const path = s.attributes.get("path")
      if (id !== undefined && path !== undefined) this.#externals.set(id, path)
    } else if (s.tag === "sub_resource") {
      this.#classes.push({ subResource: s.attributes.get("id") ?? "", className: s.attributes.get("type") ?? "" })
    } else if (s.tag === "node") {
      const type = s.attributes.get("type")
      if (type !== undefined) this.#nodeTypes.push({ type, name: s.attributes.get("name") ?? "", line: s.line, column: s.column })
      if (this.#rootSection === null && !s.attributes.has("parent")) {
        this.#rootSection = s
        const instance = parseResourceCall(s.attributes.get("instance") ?? "")
        if (instance?.kind === "Ext") this.#rootInstance = instance.id
      }
    }
  }

  #endStatement(): void {
    const s = this.#section
    if (s !== null && s === this.#rootSection && this.#key.trim() === "script" && this.#rootScript === null) {
      const call = parseResourceCall(this.#value)
      if (call?.kind === "Sub") this.#rootScript = { _tag: "BuiltIn", subResource: call.id }
      else if (call?.kind === "Ext") {
        const path = this.#externals.get(call.id)
        if (path !== undefined) this.#rootScript = { _tag: "File", path }
      }
    }
  }

  finish(): TextResourceFacts {
    if (this.#inString && this.#capture !== null) {
      throw new MalformedData(`the built-in script starting at line ${this.#captureStart.line} has no closing quote`)
    }
    const base = this.#rootInstance === null ? null : (this.#externals.get(this.#rootInstance) ?? null)
    return {
      fileTag: this.#fileTag,
      scripts: this.#scripts,
      classes: this.#classes,
      nodeTypes: this.#nodeTypes,
      rootScript: this.#rootScript,
      baseScene: base,
    }
  }
}
