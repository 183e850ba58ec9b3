import type { PolicyPattern } from "../policy/Policy.ts"
import type { DataArg } from "../resource/SceneFacts.ts"
import type { Expr, Pos } from "./ast.ts"
import type { Fn } from "./evaluate.ts"
import type { PatternHit, PolicyIndex } from "./PolicyIndex.ts"
import { isAnyObject, stringsBesidesSdk, type Val } from "./values.ts"

// A call as the analysis judges it, and what the rules split across files share about calls.

/** What the rules outside the analysis need of it: a value, and a finding. */
/** What a hit may say beyond its rule: a severity other than the rule's, why, the fix, and whether it waits for the pack's writes. */
export type HitExtra = Partial<Pick<PatternHit, "severity" | "note" | "fix" | "unpinnedLoad">>

export interface Judge {
  eval(e: Expr, fn: Fn): Val
  hit(entry: PolicyPattern, pos: Pos, matched: string, extra?: HitExtra): void
}

/** One call as judged: written (`OS.execute(a)`) or reached by dispatch (`OS.call("execute", a)`). */
export interface Site {
  readonly name: string
  readonly recv: Val
  /** No receiver: `load(x)`, a function of the script itself. */
  readonly bare: boolean
  /** The engine class the receiver is known to be, for `Class.method` tables. */
  readonly cls: string | null
  /** How the receiver is shown in messages. */
  readonly label: string
  readonly args: ReadonlyArray<Expr>
  readonly at: Pos
  /** The dispatch as written, when the call is reached by name (`OS.call("execute")`). */
  readonly via?: string
  /** The call's arguments are out of sight (they come with a signal or a later call): `args` stand for values that are not constant. */
  readonly argsUnseen?: true
  /**
   * The receiver is self (or a value that may be self) calling a method its class's engine base `selfOf` lacks: self may
   * be any engine object of a subclass of that base (a script attached with set_script), so it is judged as unknown.
   */
  readonly selfOf?: string
  /** Reached by a name read from a constant table not followed: which, and why (a finding deeper down names it too). */
  readonly tableNote?: string
}

/** A node of the scene tree (`$Path`, `get_parent()`, the nodes of a group): an engine node or one with a script of the pack. */
export const NODE: Val = { t: "inst", cls: "Node" }
export const isNode = (v: Val): boolean => v.t === "inst" && v.cls === "Node"

/** Dispatch APIs that call the method (or write the property) on the nodes of a group, not on their receiver. */
export const GROUP_CALLS: ReadonlySet<string> = new Set(["call_group", "call_group_flags", "set_group", "set_group_flags"])

/**
 * Setters whose value follows the name: Object's, Node's rset family (3.x) and thread-group setters (4.x) and SceneTree.set_group* (a tween's
 * property has its own arguments after it; rset_config's mode is no value, what a peer sends later is).
 */
export const SETS_A_VALUE: ReadonlySet<string> = new Set(["set", "set_deferred", "set_indexed", "set_deferred_thread_group", "set_thread_safe", "rset", "rset_id", "rset_unreliable", "rset_unreliable_id", "set_group", "set_group_flags"])

/** Dispatch APIs whose name is a property path (`node:property:subproperty`, Object::set_indexed), not a single property. */
export const PROPERTY_PATHS: ReadonlySet<string> = new Set(["set_indexed", "get_indexed", "interpolate_property", "follow_property", "targeting_property", "tween_property"])

/** A value written in scene data, as an expression of code: a resource or a value not followed is one not known. */
export const dataExpr = (d: DataArg, at: Pos): Expr => {
  if (typeof d === "string") return { k: "str", value: d, flavor: "", at }
  if (typeof d === "number") return Number.isFinite(d) ? { k: "num", text: String(d), at } : { k: "const", value: null, at }
  if (typeof d === "boolean" || d === null) return { k: "const", value: d, at }
  return Array.isArray(d) ? { k: "array", items: (d as ReadonlyArray<DataArg>).map((x) => dataExpr(x, at)), at } : { k: "error", at }
}

/** Whether a value that is not constant may be the name `name`: unless its known start or known alternatives rule it out. */
export const mayBeName = (v: Val, name: string): boolean => {
  if (v.t === "str") return v.values.includes(name)
  if (v.t !== "unknown") return false
  return v.prefix === undefined || name.startsWith(v.prefix)
}

/** The classes a receiver stands for in `Class.method` rules: its own, or every dangerous object for one that may be any. */
export const receiverNames = (site: Site, idx: PolicyIndex): ReadonlyArray<string> => {
  if (isAnyObject(site.recv)) return [...new Set(idx.guarded.values())]
  return site.cls === null ? [] : [site.cls]
}

/**
 * A web address a browser opens and nothing else: http:// or https://, a host name, and only characters
 * that keep it one URL (no spaces, quotes, backslashes or control characters). OS.shell_open hands the
 * string to ShellExecuteW on Windows (the scheme's handler command line), to xdg-open as one argument on
 * Linux and to NSWorkspace on macOS; with these schemes each of them opens the browser.
 */
const WEB_URL = /^https?:\/\/[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?(?:[/?#][A-Za-z0-9\-._~!$&()*+,;=:@%/?#[\]]*)?$/

/** Whether a string is such a web address. */
export const isWebUrl = (u: string): boolean => WEB_URL.test(u)

/** The constant web addresses a value holds, or null unless every value it can hold is one. */
export const webUrls = (v: Val): ReadonlyArray<string> | null => (v.t === "str" && v.values.length > 0 && v.values.every((u) => WEB_URL.test(u)) ? v.values : null)

/** The constant web addresses a value holds besides what the platform SDK may pass (values.ts `sdk`), or null. */
export const webUrlsBesidesSdk = (v: Val): ReadonlyArray<string> | null => {
  const urls = stringsBesidesSdk(v)
  return urls !== null && urls.length > 0 && urls.every((u) => WEB_URL.test(u)) ? urls : null
}
