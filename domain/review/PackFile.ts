import { Schema } from "effect"

/** What a reviewer is looking at, decided by the bytes' path and content (issue 15). */
export const PackFileKind = Schema.Literals(["script", "scene", "resource", "remap", "manifest", "project", "text", "binary"])
export type PackFileKind = typeof PackFileKind.Type

/** The kinds whose bytes may be shown as text (a binary scene or resource still gets `text: null`). */
export const TEXT_KINDS: ReadonlySet<PackFileKind> = new Set(["script", "scene", "resource", "remap", "manifest", "project", "text"])

/**
 * One entry of a pack as a reviewer knows it: keyed by the creator's path (`finding.file`), with `storedPath` when the
 * bytes live elsewhere (a `.remap` target such as Godot 4's `.godot/exported/…`), and built-in scripts of scenes as
 * `<scene path>::<sub-resource id>` entries of their own.
 */
export const PackFileEntry = Schema.Struct({
  path: Schema.String,
  storedPath: Schema.optionalKey(Schema.String),
  embeddedIn: Schema.optionalKey(Schema.String),
  sizeBytes: Schema.Int,
  kind: PackFileKind,
  sha256: Schema.String,
})
export type PackFileEntry = typeof PackFileEntry.Type

/** One entry's content: decoded text for text kinds, or the first bytes in hex for binary ones. */
export interface PackFileContent {
  readonly path: string
  readonly kind: PackFileKind
  readonly sizeBytes: number
  readonly text: string | null
  readonly truncated: boolean
  /** The first 64 bytes, hex, when `text` is null. */
  readonly head?: string
}

/** Texts longer than this are cut (the view says `truncated: true`). */
export const MAX_TEXT_BYTES = 1024 * 1024
/** Each file's unified diff is cut at this size. */
export const MAX_UNIFIED_BYTES = 256 * 1024
export const HEAD_BYTES = 64

export const BUILT_IN_SEPARATOR = "::"

/**
 * Why `path` cannot name an entry (a 400, never a lookup): the creator's form `res://…`, optionally `::<sub-resource
 * id>`, without `..`, empty or `.` segments, backslashes or control characters. The caller names the field.
 */
export const pathProblem = (path: string): string | null => {
  if (path.length === 0) return "give the file's path, e.g. res://player.gd"
  if (path.length > 4200) return `at most 4200 characters (got ${path.length})`
  if (!path.startsWith("res://")) return "must start with res:// (the path a creator knows, as in the file list)"
  const at = path.indexOf(BUILT_IN_SEPARATOR, "res://".length)
  const file = at === -1 ? path : path.slice(0, at)
  const sub = at === -1 ? null : path.slice(at + BUILT_IN_SEPARATOR.length)
  if (sub !== null && !/^[A-Za-z0-9_]{1,128}$/.test(sub)) return "a built-in script is named <scene path>::<sub-resource id> (letters, digits, _)"
  const bare = file.slice("res://".length)
  // deno-lint-ignore no-control-regex
  const control = /[\u0000-\u001f\u007f-\u009f]/.exec(bare)
  if (control !== null) return `contains the control character U+${control[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`
  if (bare.includes("\\")) return "use '/' between folders, not '\\'"
  const parts = bare.split("/")
  if (parts.includes("..")) return "'..' segments are not allowed; give the path as listed by /files"
  if (bare.length === 0 || parts.some((p) => p === "" || p === ".")) return "empty or '.' segments are not allowed; give the path as listed by /files"
  return null
}

export const builtInParts = (path: string): { readonly file: string; readonly subResource: string | null } => {
  const at = path.indexOf(BUILT_IN_SEPARATOR, "res://".length)
  return at === -1 ? { file: path, subResource: null } : { file: path.slice(0, at), subResource: path.slice(at + BUILT_IN_SEPARATOR.length) }
}
