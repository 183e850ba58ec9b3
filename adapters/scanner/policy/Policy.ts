import { Result, Schema } from "effect"
import { Severity } from "../../../domain/scan/Finding.ts"

// The banned-pattern policy is data: operators replace the JSON file, not code.
// docs/scanner.md documents every field; each match kind below is interpreted by gdscript/analyzeScript.ts.
// The reader imports only the types from here: decoding an operator's file is the one place that
// needs effect's Schema (the standalone `check` process stays small without it).

const Names = Schema.Array(Schema.String)
const ArgumentIndexes = Schema.Record(Schema.String, Schema.Array(Schema.Int))

/** `Receiver.member` uses, e.g. `OS.execute`, and dynamic dispatch naming the member. */
export const MemberMatch = Schema.Struct({
  kind: Schema.Literal("member"),
  receivers: Names,
  members: Names,
  /** Members distinctive enough to flag on any receiver (`x.shell_open(...)`), not only on `receivers`. */
  anyReceiver: Schema.optionalKey(Names),
  /** Whether `call("member")` and friends count: on any receiver, only on `receivers`, or never. */
  dispatch: Schema.optionalKey(Schema.Literals(["any-receiver", "same-receiver", "never"])),
  /**
   * A constant http:// or https:// web address at `argument` of these members (a store page opened in the
   * browser) gets `severity` instead, and the finding shows the address; any other value keeps the
   * pattern's severity.
   */
  webUrl: Schema.optionalKey(Schema.Struct({ members: Names, argument: Schema.Int, severity: Severity })),
})

/** Any use of a class or global function name in code (not after a `.`, not in strings or comments). */
export const IdentifierMatch = Schema.Struct({
  kind: Schema.Literal("identifier"),
  names: Names,
})

/** `x.property = …`, `x.set("property", …)` and setter methods. */
export const AssignmentMatch = Schema.Struct({
  kind: Schema.Literal("assignment"),
  properties: Names,
  setters: Schema.optionalKey(Names),
})

/** A call whose argument at `argument` is the literal `equals` (e.g. `get_var(true)`). */
export const ArgumentMatch = Schema.Struct({
  kind: Schema.Literal("argument"),
  /** `*`: any receiver or none (a global function). */
  receivers: Names,
  members: Names,
  argument: Schema.Int,
  equals: Schema.String,
  /** Severity when the argument is not a literal at all, so it cannot be proven safe; absent: ignore. */
  otherwise: Schema.optionalKey(Severity),
})

/** File-system calls whose path arguments must be literals starting with one of `allowedPrefixes`. */
export const PathMatch = Schema.Struct({
  kind: Schema.Literal("path"),
  allowedPrefixes: Names,
  /** Severity when a path is not a literal and so cannot be proven to stay inside the allowed prefixes. */
  otherwise: Severity,
  /** Class → static method → indexes of path arguments. */
  static: Schema.Record(Schema.String, ArgumentIndexes),
  /** Instance class → method → indexes of path arguments (relative paths are allowed there). */
  instances: Schema.Record(Schema.String, ArgumentIndexes),
  /** `Class.method` whose result is an instance of the named class, e.g. `File.new` → `File`. */
  constructors: Schema.Record(Schema.String, Schema.String),
  /**
   * Where a game may write: the paths of every engine method that writes a file (the generated
   * engine-file-writes.json) and of files opened in a write mode must start here. Absent: writes are
   * judged like reads.
   */
  writePrefixes: Schema.optionalKey(Names),
})

/**
 * Dangerous engine objects used other than as the receiver of a member access (`var os = OS`,
 * `f(OS)`, `return OS`, `[OS]`, `OS[0]`). The receivers of the other patterns are guarded too;
 * `names` adds more, `aliases` maps other spellings (`_OS`) to the object they stand for.
 */
export const GuardedMatch = Schema.Struct({
  kind: Schema.Literal("guarded"),
  names: Names,
  aliases: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
})

/** A method, property, class or singleton named by a value that is not constant, on a target that could be an engine object. */
export const DynamicDispatchMatch = Schema.Struct({ kind: Schema.Literal("dynamic-dispatch") })

/**
 * Code or data loaded at run time by path: `calls` maps `load` (global) or `Class.method` (or
 * `*.method`, any receiver) to the indexes of path arguments. A literal under `allowedPrefixes` is
 * fine; a path built at run time that provably starts there gets `otherwise`; anything else is an
 * error. `scripts` take a script object (`set_script`), `objects` build objects from data (`dict2inst`).
 */
export const RuntimeLoadMatch = Schema.Struct({
  kind: Schema.Literal("runtime-load"),
  calls: ArgumentIndexes,
  allowedPrefixes: Names,
  otherwise: Severity,
  scripts: Names,
  objects: Names,
})

/**
 * Data the engine parses with VariantParser, which builds the objects the text names as it reads it
 * (`Object(_OS, …)`, a script in `Object(GDScript, "script/source": …)` whose `_init` runs): `calls`
 * (`Class.method` → path argument indexes, `ConfigFile.load`) from a path outside `allowedPrefixes` or
 * read at run time are errors, built at run time under them `otherwise`; `texts` (`ConfigFile.parse`) of
 * text that is not constant are errors. What a constant path or text holds is judged as data.
 */
export const DataDecodingMatch = Schema.Struct({
  kind: Schema.Literal("data-decoding"),
  calls: ArgumentIndexes,
  texts: ArgumentIndexes,
  allowedPrefixes: Names,
  otherwise: Severity,
})

/**
 * Checks on the text of scripts and text resources rather than their code: `trojan-source`
 * (bidirectional controls and hidden characters, docs/scanner.md#trojan-source) and `strict-utf8`
 * (bytes that are not strict UTF-8, which the engine may decode into other code than a reviewer sees).
 */
export const TextMatch = Schema.Struct({
  kind: Schema.Literal("text"),
  check: Schema.Literals(["trojan-source", "strict-utf8"]),
})

/** A `class_name` that names an engine class or singleton (the engine's own always wins; the declaration can only mislead). */
export const ClassNameShadowMatch = Schema.Struct({ kind: Schema.Literal("class-name-shadow") })

/**
 * An engine class's internal bound method (registered with a name starting with `_`, not a virtual callback:
 * FileDialog._make_dir_confirm) called on an engine object; the names are in gdscript/engine-internals.json.
 */
export const EngineInternalMatch = Schema.Struct({ kind: Schema.Literal("engine-internal") })

export const PatternMatch = Schema.Union([MemberMatch, IdentifierMatch, AssignmentMatch, ArgumentMatch, PathMatch, GuardedMatch, DynamicDispatchMatch, RuntimeLoadMatch, DataDecodingMatch, TextMatch, ClassNameShadowMatch, EngineInternalMatch])
export type PatternMatch = typeof PatternMatch.Type

export const PolicyPattern = Schema.Struct({
  id: Schema.String.pipe(Schema.check(Schema.isPattern(/^[a-z0-9][a-z0-9-]*$/, { expected: "a lowercase id such as os-process" }))),
  /** What a reviewer reads in a finding's `pattern` field. */
  pattern: Schema.String,
  rationale: Schema.String,
  severity: Severity,
  /** Where the rule is documented, e.g. `docs/scanner.md#os-process`. */
  docs: Schema.String,
  /** The entry of the report's capability summary its uses are listed under (docs/scanner.md#capabilities). */
  capability: Schema.optionalKey(Schema.String),
  /** The exact change that removes a finding, when it is more than removing the call (shown in findings and on the rule's page). */
  fix: Schema.optionalKey(Schema.String),
  match: PatternMatch,
})
export type PolicyPattern = typeof PolicyPattern.Type

/** Functions that call a method, read a property or create a class named by a string argument. */
export const Dispatcher = Schema.Struct({
  /** `call` (any receiver) or `Class.method` (that receiver only). */
  function: Schema.String,
  nameArgument: Schema.optionalKey(Schema.Int),
  classArgument: Schema.optionalKey(Schema.Int),
  /** The argument holding the object the name is dispatched to (`Callable(OS, "execute")`). */
  targetArgument: Schema.optionalKey(Schema.Int),
  /** The name is a property being written (`set("source_code", …)`). */
  setter: Schema.optionalKey(Schema.Boolean),
  /**
   * Names match member patterns only on their own receivers (`OS.get("execute")`), whatever the
   * pattern's `dispatch`: `get`/`set` are everyday dictionary and property calls.
   */
  sameReceiverOnly: Schema.optionalKey(Schema.Boolean),
})
export type Dispatcher = typeof Dispatcher.Type

/**
 * Allowed APIs a reviewer still wants listed in the capability summary: `calls` are `Class.method`
 * on that class or its instances; `writeModes` are file opens whose mode argument (at the index)
 * names WRITE, READ_WRITE or WRITE_READ (or is not a constant).
 */
export const SensitiveUse = Schema.Struct({
  capability: Schema.String,
  calls: Names,
  writeModes: Schema.optionalKey(Schema.Record(Schema.String, Schema.Int)),
})
export type SensitiveUse = typeof SensitiveUse.Type

/** A class the platform's SDK provides, at the res:// path of its script (a file of a reserved folder the export leaves out). */
export const PlatformClass = Schema.Struct({
  name: Schema.String,
  path: Schema.String,
  /**
   * The functions of a class extending it that the SDK calls (its hooks): names, or a start written `prefix*`. Absent:
   * the SDK may call any function of such a class, with anything (gdscript/callers.ts).
   */
  hooks: Schema.optionalKey(Schema.Array(Schema.String)),
})
export type PlatformClass = typeof PlatformClass.Type

export const Policy = Schema.Struct({
  version: Schema.String,
  /** Top-level folders no pack may contain, written with a trailing `/`; compared case-insensitively. */
  reservedPaths: Names,
  /**
   * The classes the platform's SDK registers (`EngineGame` at `res://sdk/engine_game.gd`): a pack's registration of one
   * of them at exactly that path, a file the pack lacks, names the platform's script (checks/platformScripts.ts).
   */
  platformClasses: Schema.optionalKey(Schema.Array(PlatformClass)),
  /** File extensions of native or binary code (lowercase, with the dot); `.framework/` matches a folder. */
  nativeExtensions: Names,
  dispatchers: Schema.Array(Dispatcher),
  patterns: Schema.Array(PolicyPattern),
  sensitive: Schema.optionalKey(Schema.Array(SensitiveUse)),
})
export type Policy = typeof Policy.Type

export type PolicyDecoding = { readonly _tag: "Policy"; readonly policy: Policy } | { readonly _tag: "Invalid"; readonly problem: string }

/** Parses an operator's policy file (JSON text). */
export const parsePolicy = (text: string): PolicyDecoding => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return { _tag: "Invalid", problem: `not JSON: ${error instanceof Error ? error.message : String(error)}` }
  }
  const decoded = Schema.decodeUnknownResult(Policy)(json)
  if (Result.isFailure(decoded)) return { _tag: "Invalid", problem: decoded.failure.message }
  const ids = decoded.success.patterns.map((p) => p.id)
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i)
  if (duplicate !== undefined) return { _tag: "Invalid", problem: `pattern id '${duplicate}' appears twice` }
  return { _tag: "Policy", policy: decoded.success }
}
