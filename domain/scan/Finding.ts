import { Schema } from "effect"

/** `error` blocks a submission (422 on the multipart path); `warning` only informs the reviewer. */
export const Severity = Schema.Literals(["error", "warning"])
export type Severity = typeof Severity.Type

/** Where a built-in script lives when it has no text file of its own (a sub-resource of a binary scene). */
export const EmbeddedIn = Schema.Struct({
  /** The scene or resource a creator knows, e.g. `res://game/main.tscn`. */
  resource: Schema.String,
  /** The sub-resource id inside it, e.g. `GDScript_k3x9a` (Godot 4) or `1` (Godot 3). */
  subResource: Schema.String,
})
export type EmbeddedIn = typeof EmbeddedIn.Type

/**
 * One problem found in a pack.
 * `line`/`column` are 1-based and point into the file a reviewer would open; both are null for
 * findings about a whole file (reserved path, native library, missing manifest, compiled script).
 */
export const Finding = Schema.Struct({
  /** The path a creator knows, always with `res://` (a `.remap`'s original path, not the exported copy). */
  file: Schema.String,
  line: Schema.NullOr(Schema.Int),
  column: Schema.NullOr(Schema.Int),
  /** Stable rule id (see `RuleId`). */
  rule: Schema.String,
  /** What matched: a banned API such as `OS.execute`, an extension such as `.gdc`, a folder such as `sdk/`. */
  pattern: Schema.String,
  message: Schema.String,
  severity: Severity,
  /** Where the bytes really are when that differs from `file` (a `.remap` target, a `.gdc`). */
  storedPath: Schema.optionalKey(Schema.String),
  /** Set when `line` counts inside a built-in script of a binary scene rather than inside `file`. */
  embeddedIn: Schema.optionalKey(EmbeddedIn),
  /**
   * Stays the same when unrelated lines move: the rule, the file and the normalised text of the flagged line, plus an
   * occurrence index. A finding of 1.0.0 and the same finding of 1.1.0 share it (issue 15: accepted findings, diffs).
   * Absent in reports written before the scanner computed it.
   */
  fingerprint: Schema.optionalKey(Schema.String),
})
export type Finding = typeof Finding.Type
