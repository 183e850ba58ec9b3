import type { PolicyPattern } from "../policy/Policy.ts"
import { type Expr, type Pos, valuesAtKey } from "./ast.ts"
import { type Judge, receiverNames, type Site } from "./callSite.ts"
import { type FileWrite, fileWritesNamed, fixedByOpenFolder, variantNamesakes } from "./engineFileWrites.ts"
import { type Fn, isScriptLike } from "./evaluate.ts"
import { bbcodeLoads } from "../resource/bbcode.ts"
import { DIGITS, PACK_DATA, shapeOf, TRANSLATED, UNPINNED } from "./bbcodeTemplate.ts"
import { type PackModel, type PackScript, relativeBases, resolveScriptPath } from "./packModel.ts"
import { engineLookupPath, extendsLookup, type PackLookup, packLookup, simplifyResPath, untidyFix, untidyPath, untidyWhy } from "../pack/packPath.ts"
import type { PatternHit, PolicyIndex } from "./PolicyIndex.ts"
import { type DataSel, isAnyObject, isExternal, isHostData, judgePath, knownStrings, strs, type Val } from "./values.ts"
import { settingBase } from "../packFiles/settingName.ts"
import { keepsName, mayBeLoadable, writesRedirect, writesStartupSettings } from "./loadableWrites.ts"

/** Whether `name` is a local of the function or of one it is nested in (a lambda's). */
/** String::is_abs_path: a leading slash or backslash, or ":/" or ":\" anywhere (res://, user://, C:/). */
const isAbsPath = (p: string): boolean => /^[/\\]/.test(p) || p.includes(":/") || p.includes(":\\")

/** The one value a plain local of the function (or of one it is nested in) is ever given, or null. */
const singleInit = (name: string, fn: Fn): Expr | null => {
  for (let f: Fn | null = fn; f !== null; f = f.parent) {
    const local = f.locals.get(name)
    if (local === undefined) continue
    const plain = local.param === undefined && !local.opaque && local.appends.length === 0 && (local.loopsOver ?? []).length === 0 && local.inits.length === 1
    return plain ? (local.inits[0] ?? null) : null
  }
  return null
}

const isLocalOf = (name: string, fn: Fn): boolean => {
  for (let f: Fn | null = fn; f !== null; f = f.parent) if (f.locals.has(name)) return true
  return false
}

// The rules of a call that are about files: path arguments of file-system calls and of every engine
// method that writes a file (filesystem-outside-sandbox), paths a resource or script is loaded from
// (runtime-code-loading: outside the pack, read at run time, or a res:// path the pack lacks), and data
// the engine's variant parser reads (config-file-objects: ConfigFile.load/parse), whose constant paths
// and texts are kept for contentScan to read as data.

/** How one path argument is judged: the prefixes it must start with, whether a relative path is fine, and whether it is a write. */
interface PathCheck {
  readonly prefixes: ReadonlyArray<string>
  readonly relative: boolean
  readonly writes: boolean
  /** The receiver is not known to be the class: only a path that is surely outside counts. */
  readonly vague: boolean
  /** On such a receiver, a file opened in a mode that may write: a path not shown to stay inside is a warning. */
  readonly warnUnknown?: true
  /**
   * A write on a receiver of unknown class that may be the engine class (no class of the pack has a method
   * of that name taking these arguments): judged as on that class, where only a value that is no string
   * (a number, an object) is no path.
   */
  readonly unknownClass?: string
  /**
   * Such a write where a class of the pack, or a built-in Variant type (3.x Array.remove(index)), has a method
   * of that name taking the call (which one, for the message): a path not shown to stay inside is a warning.
   */
  readonly namesake?: string
}

/** Data a script hands to the engine's variant parser as a constant (a file of the pack by path, or text): judged as data. */
export interface DataRead {
  readonly line: number
  readonly column: number
}

/** BBCode built from strings of the pack's own data files (PACK_DATA in `template`), judged with those files' strings by contentScan. */
export interface BbcodeData extends DataRead {
  readonly template: string
  /** The files: `res://a.json`, or `res://dialogue/*` for every file under a folder. */
  readonly sources: ReadonlyArray<string>
  /** Constant strings that may stand in the data's place (a default of get()): judged with the files' strings. */
  readonly constants: ReadonlyArray<string>
  readonly call: string
  /** Which parts of the files the data is (values.ts DataSel); absent when not known (every string of the files is judged). */
  readonly sels?: ReadonlyArray<DataSel>
  /**
   * Set when the BBCode is any concatenation of pieces (a local built with `+=` in a loop): every piece's template,
   * this one among them. No piece or string of the data may then leave a tag open for the next piece to complete
   * (checked with the first piece holding data).
   */
  readonly joined?: ReadonlyArray<string>
}

/** What FileRules.bbcode is told of the pack's data in a template (see BbcodeData). */
export type BbcodeDataParts = Pick<BbcodeData, "sources" | "constants" | "sels" | "joined">

/** A load path read from the pack's own data files (values.ts, DataSel), judged with the strings of those files that can reach it by contentScan (checks/loadData.ts). */
export interface LoadData extends DataRead {
  /** The files: `res://a.json`, or `res://levels/*` for every file under a folder. */
  readonly sources: ReadonlyArray<string>
  readonly sels: ReadonlyArray<DataSel>
  /** The call as the finding shows it (`load`, `ResourceLoader.load`). */
  readonly call: string
}

/**
 * A user:// write whose parts built at run time are one name each, some of them strings of the pack's own data files
 * (`"user://best_" + level["id"] + ".json"`): judged by contentScan with the strings that can reach each
 * (checks/writeData.ts): `hit` (the climbing-write error) when one of them holds a `/`, a `\\`, a NUL or is `..`.
 */
export interface WriteData extends DataRead {
  readonly parts: ReadonlyArray<{ readonly sources: ReadonlyArray<string>; readonly sels: ReadonlyArray<DataSel> }>
  readonly hit: PatternHit
}

/** Project settings the engine reads to place user://, and the calls that write a setting. */
const USER_DATA_SETTINGS: ReadonlySet<string> = new Set(["application/config/name", "application/config/use_custom_user_dir", "application/config/custom_user_dir_name"])
const USER_DATA_SETTERS: ReadonlySet<string> = new Set(["set_setting", "set", "set_deferred", "set_indexed"])

/** Whether a setting's name not pinned down may be one that places user:// (or its feature override): not a number, nor a string whose known start rules them out. */
const mayNameUserDataSetting = (v: Val): boolean => {
  if (v.t === "str" || v.t === "lit" || (v.t === "inst" && v.cls !== "String" && v.cls !== "StringName")) return false
  if (v.t !== "unknown" || v.prefix === undefined) return true
  const start = v.prefix
  return [...USER_DATA_SETTINGS].some((s) => s.startsWith(start) || start.startsWith(s))
}

/** Parameter types a number fits (Godot converts between them). */
const NUMBER_TYPES: ReadonlySet<string> = new Set(["int", "float", "real"])

const at = (p: Pos): { line: number; column: number } => ({ line: p.line, column: p.column })

/** `-`, `*`, `/` and negation never give a string in either engine (no String operator of theirs): the value is no path. */
const isArithmetic = (e: Expr): boolean => (e.k === "bin" && (e.op === "-" || e.op === "*" || e.op === "/")) || (e.k === "unary" && e.op === "-")

/**
 * A load path without its `""` alternatives, or null when nothing else is left. `""` is a relative path, which
 * ResourceLoader makes `"res://" + path` (3.x core/io/resource_loader.cpp load, load_interactive, exists; 4.x
 * `_validate_local_path`, simplified): `res://`, a folder no loader takes, so the load fails after the probes of
 * `res://.remap` and `res://.import` every path gets for its own name (the pack's redirects are judged by
 * redirectCheck.ts; files on the disk no pack can write). BitmapFont.create_from_fnt opens `""` and fails. godot3-server
 * 3.2.3 gives null for load(""), ResourceLoader.load(""), load_interactive("") and ERR_CANT_OPEN for change_scene("").
 * Only a whole `""` goes: a string joined to `""` is judged as what it is.
 */
/** Directory's (4.x DirAccess's) methods that act on a path relative to the folder the object has open. */
const FOLDER_OPERATIONS: ReadonlySet<string> = new Set(["remove", "copy", "rename", "make_dir", "make_dir_recursive", "change_dir", "erase_contents_recursive"])

const withoutEmptyPath = (v: Val): Val | null => {
  if (v.t === "str") return v.values.includes("") ? (v.values.some((p) => p !== "") ? strs(v.values.filter((p) => p !== "")) : null) : v
  if (v.t !== "unknown" || v.some?.includes("") !== true) return v
  const { some, ...rest } = v
  const kept = some.filter((p) => p !== "")
  return kept.length === 0 ? rest : { ...rest, some: kept }
}

/** A policy table's entry for a name from the script: its own keys only (`valueOf`, `constructor` are names too). */
const entryOf = <V>(table: Readonly<Record<string, V>> | undefined, key: string): V | undefined => (table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined)

/**
 * A res:// path whose only part not pinned down is numbers a `%` or `str()` put in (`"res://levels/level_%d.tscn" %
 * n`, values.ts `digitsOnly`): digits, a sign or a point hold no `/`, no NUL and no `..`, so it names a file of that
 * folder with that end, whichever number it is, unless its constant parts are untidy (a `..`, `.` or empty segment).
 * A file the pack writes there is a write outside user://: a constant one is an error of its own, so such a load
 * waits only for a loadable write whose path may climb out of user:// (mayClimb; unpinnedLoads.ts).
 */
/**
 * Whether a written path may climb out of user:// with `..`: a part built at run time after its known start that is
 * not numbers (FileAccess hands the joined path to fopen unsimplified; a twentieth red team's copy wrote outside
 * user:// this way). A constant path is judged as it stands; the user data folder's own path joined to constants is
 * known whole.
 */
const mayClimb = (v: Val): boolean => v.t === "unknown" && v.digitsOnly !== true && v.dataDir !== true && v.alts === undefined

/** Strings a value's every form shows the constant parts of (a digit for numbers put in), or null. */
const sample = (v: Val): ReadonlyArray<string> | null => {
  if (v.t === "str") return v.values
  if (v.t !== "unknown") return null
  if (v.alts !== undefined) {
    const all = v.alts.map(sample)
    return all.every((x) => x !== null) ? all.flat() : null
  }
  return v.digitsOnly === true ? [`${v.prefix ?? ""}0${v.suffix ?? ""}`] : null
}

/**
 * A path whose parts built at run time are file names only: `"user://" + path.get_file() + ".save"` (String.get_file
 * keeps what follows the last `/`, so no folder and no `..` to climb with; a `..` alone names at most the folder just
 * above, where the constant parts say what it opens). A part that is a string of the pack's own data files counts as
 * one name too, to be judged with the strings that can reach it (WriteData): the values of those parts; null when the
 * path is not names only.
 */
const nameOnly = (arg: Expr, packDefines: (name: string) => boolean, value: (e: Expr) => Val, objectFiles: boolean, localInit: (name: string) => Expr | null): ReadonlyArray<Val> | null => {
  const parts = pathParts(arg, localInit)
  // Constant parts by their values (`SAVE_DIR + fn`): each string they may be.
  const texts = parts.map((p): ReadonlyArray<string> | null => {
    if (p.k === "str") return [p.value]
    const v = value(p)
    // Numbers between known text (`dest = "user://backups/" + str(t) + "/"`): that text, with a digit for the numbers.
    return sample(v)
  })
  // One name, and no folder after it: a ".." there climbs one folder at most, into what the constant start names.
  const first = texts.findIndex((t) => t === null)
  const names = parts.filter((_, i) => texts[i] === null)
  // Without an engine object of a `get_file` of its own in the pack, any receiver of one is text.
  const text = (e: Expr): boolean => !objectFiles || isText(value(e))
  const listed = (e: Expr): boolean => isListed(value(e))
  if (names.length !== 1 || !texts.every((t, i) => t === null || t.every((x) => !x.includes("..") && (i < first || !x.includes("/"))))) return null
  const data = names.map(value).filter(isPackDataString)
  return data.length === names.length || names.every((p) => namePart(p, packDefines, text, listed)) ? data : null
}

/**
 * Whether a user:// path's file name is cut from data (read at run time, or from the pack's data files: `"user://" +
 * str(n).get_file()`) and may then be a file the engine reads by itself: a redirect (`.remap`, `.import`) in any folder,
 * or a `project.godot` or `default_bus_layout.tres` at user://'s root, which the engine reads from the working folder
 * (ninety-sixth to ninety-eighth red teams'). The constant text after the last part built at run time (every
 * alternative of it: `+ ext`, `+ ("" if … else ".save")`) must rule those names out (`+ ".save"`); an entry of a
 * folder listing is a file already there, and a value the analysis only lost (a parameter it did not follow) is not
 * judged so (Limits).
 */
const namesEngineReadFile = (arg: Expr, value: (e: Expr) => Val, localInit: (name: string) => Expr | null): boolean => {
  const parts = pathParts(arg, localInit)
  const texts = parts.map((part) => (part.k === "str" ? [part.value] : sample(value(part))))
  const at = texts.findLastIndex((t) => t === null)
  const built = parts[at]
  if (built === undefined || isListed(value(built)) || !fromData(built, value)) return false
  let tails: ReadonlyArray<string> = [""]
  for (const t of texts.slice(at + 1)) tails = t === null ? tails : tails.flatMap((x) => t.map((y) => x + y)).slice(0, MAX_TAILS)
  // Where the name starts at user://'s root, and what it starts with there.
  const before = texts.slice(0, at).map((t) => t?.[0] ?? "").join("")
  const start = before.startsWith("user://") && !before.slice("user://".length).includes("/") ? before.slice("user://".length).toLowerCase() : null
  return tails.some((tail) => mayEndAsEngineRead(tail, start))
}

/** How many alternatives of a path's constant end are judged. */
const MAX_TAILS = 16

/** Whether a name of unknown text followed by `tail` may be a redirect, or (at user://'s root, after `start`) a file the engine reads at start-up. */
const mayEndAsEngineRead = (tail: string, start: string | null): boolean => {
  const end = tail.replace(/[\s.\u0000-\u001f]+$/, "").toLowerCase()
  if (end === "") return true
  const ends = (name: string): boolean => name.endsWith(end) || end.endsWith(name)
  return [".remap", ".import"].some(ends) || (start !== null && ["project.godot", "default_bus_layout.tres"].some((name) => name.startsWith(start) && ends(name)))
}

/** Whether a part of a path is cut from data read at run time or from the pack's data files (`str(n).get_file().to_lower()` is cut from `n`). */
const fromData = (part: Expr, value: (e: Expr) => Val): boolean => {
  let base = part
  while (base.k === "call" && base.callee.k === "member" && (NAME_MAKERS.has(base.callee.name) || NAME_KEEPERS.has(base.callee.name))) base = base.callee.obj
  if (base.k === "call" && base.callee.k === "id" && (base.callee.name === "str" || base.callee.name === "String") && base.args.length === 1 && base.args[0] !== undefined) base = base.args[0]
  const v = value(base)
  return isExternal(v) || (v.t === "unknown" && v.packData !== undefined)
}

/**
 * The parts a path is joined from: the operands of `+`, a local given one value and nothing else by that value
 * (`var path = "user://saves/" + n.get_file() + ".save"`), and `"…%s…" % x` as the text around `x` (a ninety-seventh
 * hunt's save slots).
 */
const pathParts = (arg: Expr, localInit: (name: string) => Expr | null): ReadonlyArray<Expr> => {
  const parts: Array<Expr> = []
  const flatten = (e: Expr, depth: number): void => {
    if (e.k === "bin" && e.op === "+") return (flatten(e.left, depth), flatten(e.right, depth))
    const init = e.k === "id" && depth < MAX_INLINED ? localInit(e.name) : null
    if (init !== null) return flatten(init, depth + 1)
    const formatted = formatParts(e)
    if (formatted !== null) return formatted.forEach((part) => flatten(part, depth))
    parts.push(e)
  }
  flatten(arg, 0)
  return parts
}

/** How many locals deep a path's parts are followed into their values. */
const MAX_INLINED = 4

/** `"pre%spost" % x` (or `% [x]`) as its three parts, where the format holds one `%s` and no other directive; else null. */
const formatParts = (e: Expr): ReadonlyArray<Expr> | null => {
  if (e.k !== "bin" || e.op !== "%" || e.left.k !== "str") return null
  const format = e.left.value
  const at = format.indexOf("%s")
  if (at < 0 || format.replace("%s", "").includes("%")) return null
  const item = e.right.k === "array" ? (e.right.items.length === 1 ? e.right.items[0] : undefined) : e.right
  if (item === undefined) return null
  const text = (value: string): Expr => ({ k: "str", value, flavor: "", at: e.at })
  return [text(format.slice(0, at)), item, text(format.slice(at + 2))]
}

/** A string of the pack's own data files whose selection the analysis followed (values.ts DataSel), and nothing else. */
const isPackDataString = (v: Val): boolean => v.t === "unknown" && v.packData !== undefined && v.dataSel !== undefined && v.host !== true && v.any !== true && v.prefix === undefined && v.suffix === undefined

/** Methods whose result is one file or node name: no `/` (get_file keeps what follows the last one; node names drop it; http_escape and uri_encode percent-encode it). */
const NAME_MAKERS: ReadonlySet<string> = new Set(["get_file", "validate_node_name", "get_locale", "http_escape", "uri_encode"])
/** Engine classes other than String with a `get_file()` (the class reference): it hands back their whole path. */
const FILE_OBJECTS: ReadonlyArray<string> = ["VideoStreamTheora", "VideoStreamWebm", "VideoStreamGDNative", "EditorFileSystemDirectory"]

/** Methods that keep a name a name (no `/` comes in). */
const NAME_KEEPERS: ReadonlySet<string> = new Set(["get_basename", "to_lower", "to_upper", "capitalize", "strip_edges", "left", "right", "substr"])

/**
 * A part that is one name: `x.get_file()`, `s.validate_node_name()`, `TranslationServer.get_locale()`, then
 * lower-cased or its extension dropped; not where a class of the pack has a method of that name (which may run
 * instead and return anything: a twenty-third red team's own `get_file()`).
 */
const namePart = (e: Expr, packDefines: (name: string) => boolean, text: (e: Expr) => boolean, listed: (e: Expr) => boolean): boolean => {
  // An entry of a listing that skips "." and "..": one name of the folder listed (evaluate.ts get_next).
  if (listed(e)) return true
  if (e.k !== "call" || e.callee.k !== "member" || packDefines(e.callee.name)) return false
  // A name cut or changed in case is still one name (`TranslationServer.get_locale().substr(0, 2)`).
  if (NAME_KEEPERS.has(e.callee.name)) return namePart(e.callee.obj, packDefines, text, listed)
  if (e.args.length > 0) return false
  // String's methods only: a VideoStreamTheora's get_file() hands back its whole path (red team 24a).
  if (e.callee.name === "get_locale") return e.callee.obj.k === "id" && (e.callee.obj.name === "TranslationServer" || e.callee.obj.name === "OS")
  // String's get_file only: an engine object's (a VideoStreamTheora's is its whole path) where the pack may make one.
  if (e.callee.name === "get_file") return text(e.callee.obj)
  return NAME_MAKERS.has(e.callee.name)
}

/**
 * A value known to be text, so no object with a `get_file` of its own (a VideoStreamTheora's is its whole path): a
 * string, a String-typed value, text built with `+` or `%`, JSON's plain data, an entry of a folder listing. Not a
 * value the analysis lost nor data read at run time from a store of any Variant (a ConfigFile's `get_value`, a
 * `get_var`, `get_meta`: a twenty-sixth red team's VideoStreamTheora kept in a ConfigFile).
 */
const isText = (v: Val): boolean =>
  v.t === "str" ||
  (v.t === "inst" && v.cls === "String") ||
  (v.t === "unknown" && v.any !== true && (v.insts ?? []).length === 0 && (v.listing === true || v.json === true || v.plain === true || v.digitsOnly === true || v.prefix !== undefined || v.suffix !== undefined))

const CLIMB_FIX = 'Join only a file name: "user://" + name.get_file() + ".save" (or name.md5_text() for a name of any text), or build names from numbers ("user://save_%d.json" % slot)'

const isListed = (v: Val): boolean => v.t === "unknown" && v.listing === true

const numberedPath = (v: Val): boolean => {
  if (v.t !== "unknown" || v.digitsOnly !== true || v.prefix === undefined || !v.prefix.startsWith("res://")) return false
  const sample = `${v.prefix.slice("res://".length)}0${v.suffix ?? ""}`
  return !sample.split("/").some((segment) => segment === ".." || segment === "." || segment === "")
}

export class FileRules {
  /** Files of the pack read with ConfigFile.load by a constant path. */
  readonly dataFiles: Array<DataRead & { readonly path: string }> = []
  /** Constant text given to ConfigFile.parse. */
  readonly dataTexts: Array<DataRead & { readonly text: string }> = []
  /** BBCode built from the pack's own data files. */
  readonly bbcodeData: Array<BbcodeData> = []
  /** Load paths read from the pack's own data files. */
  readonly loadData: Array<LoadData> = []
  /** user:// writes named by strings of the pack's own data files. */
  readonly writeData: Array<WriteData> = []
  /** Writes whose file a later load may read as code (loadableWrites.ts): what makes a load path not pinned down an error (checks/unpinnedLoads.ts). */
  readonly loadableWrites: Array<DataRead & { readonly shown: string; readonly mayClimb: boolean }> = []
  readonly #script: PackScript
  readonly #model: PackModel
  readonly #idx: PolicyIndex
  readonly #judge: Judge

  constructor(script: PackScript, model: PackModel, idx: PolicyIndex, judge: Judge) {
    this.#script = script
    this.#model = model
    this.#idx = idx
    this.#judge = judge
  }

  /**
   * Path arguments of file-system calls: the policy's static and instance methods, a file opened in a
   * mode that may write, and every engine method that writes a file (engine-file-writes.json), which may
   * write only under the policy's `writePrefixes` (user://).
   */
  pathRules(site: Site, fn: Fn): void {
    const { name, recv } = site
    for (const { entry, match } of this.#idx.paths) {
      // The receiver's class: known, the one class it is ever given (a parameter some call passes File.new()), or told by the mode (`f.open(p, File.WRITE)`).
      const receiver = recv.t === "guard" ? recv.name : recv.t === "inst" ? recv.cls : recv.t === "unknown" && !site.bare ? (site.cls ?? this.#classByMode(site)) : null
      const staticArgs = recv.t === "guard" ? entryOf(entryOf(match.static, recv.name), name) : undefined
      const instanceArgs = receiver === null ? undefined : entryOf(entryOf(match.instances, receiver), name)
      const unknownReceiver = receiver === null && recv.t === "unknown" && Object.values(match.instances).some((m) => entryOf(m, name) !== undefined)
      const indexes = staticArgs ?? instanceArgs ?? (unknownReceiver ? Object.values(match.instances).map((m) => entryOf(m, name)).find((x) => x !== undefined) : undefined)
      const checks = new Map<number, PathCheck>()
      // Only a Directory's methods that fix a path against the folder it has open take a relative path inside;
      // anywhere else (File.open, a StreamTexture's load, Directory.open and copy) FileAccess opens it in the working folder.
      const relative = unknownReceiver || (staticArgs === undefined && receiver !== null && fixedByOpenFolder(receiver, name))
      for (const n of indexes ?? []) checks.set(n, { prefixes: match.allowedPrefixes, relative, writes: false, vague: unknownReceiver })
      const writePrefixes = match.writePrefixes
      if (writePrefixes !== undefined && !site.bare) {
        const cls = receiver ?? site.cls
        // On a receiver of unknown class, a write is judged as on the engine's class unless the pack's own method of that name, or a built-in type's, may take the call.
        const namesake = cls === null && recv.t === "unknown" ? this.#namesake(site, fn) : null
        const unknownClass = cls === null && recv.t === "unknown" && namesake === null
        const loose = (engineClass: string): Partial<PathCheck> | null => (unknownClass ? { vague: false, unknownClass: engineClass } : namesake !== null ? { namesake } : null)
        // A file opened in a mode that may write is a write.
        const modeAt = cls === null ? (unknownReceiver ? this.#anyWriteMode(name) : undefined) : this.#idx.writeModes.get(`${cls}.${name}`)
        // On a receiver of unknown class, a mode that may write makes a path not shown to stay in user:// a warning (or, see above, is judged as a File's).
        if (modeAt !== undefined && this.mayWrite(site.args[modeAt], fn)) for (const [n, c] of checks) checks.set(n, { ...c, prefixes: writePrefixes, relative: false, writes: true, ...(c.vague ? { warnUnknown: true } : {}), ...loose(this.#anyWriteClass(name)) })
        // The method of the receiver's class; on a receiver of unknown class, any class's method of that name.
        const all = fileWritesNamed(this.#script.grammar, name)
        const exact = all.filter((w) => w.class === cls)
        const vague = exact.length === 0
        for (const w of vague ? (recv.t === "unknown" ? all : []) : exact) {
          const relative = fixedByOpenFolder(w.class, name) && recv.t !== "guard"
          for (const n of w.paths) if (!vague || unknownClass || namesake !== null || !checks.has(n)) checks.set(n, { prefixes: writePrefixes, relative, writes: true, vague, ...(vague ? loose(w.class) : null) })
          // On a receiver of unknown class only a method that takes no path at all (create_temp) is judged by its name: `slot.save()` is no ResourceSaver.
          if (w.implicit !== undefined && (!vague || (unknownClass && w.paths.length === 0)) && w.paths.every((n) => site.args[n] === undefined)) this.#implicitWrite(site, w, entry, writePrefixes)
        }
      }
      for (const [n, check] of checks) this.#judgePathArgument(site, fn, n, check, entry, match.otherwise)
    }
  }

  /** A write whose place is in no argument (engineFileWrites.ts `implicit`): never shown to be under `writePrefixes`. */
  #implicitWrite(site: Site, w: FileWrite, entry: PolicyPattern, writePrefixes: ReadonlyArray<string>): void {
    const where = `${writePrefixes.join(" or ")}, where a game may write`
    const shown = site.via ?? `${w.class}.${site.name}(…)`
    this.loadableWrites.push({ ...at(site.at), shown, mayClimb: true })
    if (w.implicit === "temp") {
      const what = w.class === "DirAccess" ? "folder" : "file"
      this.#judge.hit(entry, site.at, shown, {
        note: `it creates a ${what} in the operating system's temporary folder (OS.get_temp_dir()), outside ${where}, and hands back its path (get_path_absolute, get_current_dir), so what the game writes there can be loaded as code or left on the player's machine`,
        fix: `Write under user:// instead: ${w.class === "DirAccess" ? 'DirAccess.make_dir_recursive_absolute("user://…")' : 'FileAccess.open("user://…", FileAccess.WRITE)'}, and remove the ${what} when done`,
      })
      return
    }
    this.#judge.hit(entry, site.at, shown, {
      note: `no path is given, so the engine writes to the resource's own resource_path: a res:// path (the game's folder) for a resource of the pack, or any path the code gave it (resource_path, take_over_path), never shown to be under ${where}`,
      fix: `Pass the path: ${w.class}.${site.name}(resource, "user://…")`,
    })
  }

  /**
   * A run-time write of a project setting the engine reads to place user:// (3.2.3 and 4.x OS_Unix and
   * OS_Windows get_user_data_dir: application/config/name, use_custom_user_dir, custom_user_dir_name): it
   * moves user:// to any folder of the player's data folder (another game's saves, desktop launchers), with
   * whatever value. Written by set_setting, Object's setters, or dispatch to them.
   */
  userDataSetting(site: Site, fn: Fn): void {
    if (site.bare || !USER_DATA_SETTERS.has(site.name) || site.args[0] === undefined) return
    if (site.cls !== "ProjectSettings" && !(isAnyObject(site.recv) && receiverNames(site, this.#idx).includes("ProjectSettings"))) return
    const key = this.#judge.eval(site.args[0], fn)
    const setting = knownStrings(key).map(settingBase).find((k) => USER_DATA_SETTINGS.has(k))
    if (setting === undefined) {
      // A setting named at run time may be one of them (a thirtieth red team's names from the engine's property list,
      // and from the pack's JSON, set `application/config/name` to "" and wrote through "user:///tmp/…" to /tmp).
      if (!mayNameUserDataSetting(key)) return
      for (const { entry } of this.#idx.paths) {
        this.#judge.hit(entry, site.at, site.via ?? `ProjectSettings.${site.name}(…)`, {
          note: `the setting is named at run time, so it may be ${[...USER_DATA_SETTINGS].join(" or ")}, by which the engine places user:// (an empty name makes "user://" the working folder, and "user:///tmp/x" the file /tmp/x)`,
          fix: "Name the setting with a constant string (ProjectSettings.set_setting(\"display/window/vsync/use_vsync\", v)), one by one for the settings the game changes",
        })
      }
      return
    }
    for (const { entry } of this.#idx.paths) {
      this.#judge.hit(entry, site.at, site.via ?? `ProjectSettings.${site.name}(${JSON.stringify(setting)}, …)`, {
        note: `the engine places user:// by ${setting}, so writing it at run time moves the game's save folder to another folder of the player's data folder (another game's saves, desktop launchers)`,
        fix: "Leave the settings that place user:// as project.godot has them; keep the game's files under its own user:// folder",
      })
    }
  }

  /** Whether the pack may make an engine object whose `get_file()` is a path (FILE_OBJECTS), or set one's path on an object of its resources. */
  #objectFiles(): boolean {
    this.#mayMakeFileObjects ??= FILE_OBJECTS.some((cls) => this.#model.mayCreate(cls)) || this.#model.mentions("set_file")
    return this.#mayMakeFileObjects
  }

  #mayMakeFileObjects: boolean | null = null

  #judgePathArgument(site: Site, fn: Fn, n: number, check: PathCheck, entry: PolicyPattern, otherwise: PatternHit["severity"]): void {
    const arg = site.args[n]
    if (arg === undefined) return
    const given = this.#judge.eval(arg, fn)
    // A file opened or saved at `""` is none: FileAccess opens `""` as it is, and fopen fails (a member `var path = ""`
    // until the game sets it); not with save-and-swap on, where it writes `".tmp"` in the working folder (a
    // twenty-eighth red team's). A folder operation's `""` is the folder the object has open (`dir.remove("")`).
    const dropsEmpty = check.writes && !FOLDER_OPERATIONS.has(site.name) && !(site.recv.t === "inst" && (site.recv.cls === "Directory" || site.recv.cls === "DirAccess")) && !this.#model.mentions("set_use_file_access_save_and_swap")
    const v = dropsEmpty ? withoutEmptyPath(given) : given
    if (v === null) return
    // A number or an object given to a method of an object of unknown class is no path (Array.remove(i), remove(size() - 1)).
    if (check.unknownClass !== undefined && ((v.t !== "str" && v.t !== "unknown") || isArithmetic(arg))) return
    const receiver = site.recv.t === "guard" ? site.recv.name : site.recv.t === "inst" ? site.recv.cls : site.cls
    const call = `${receiver ?? (site.label === "" ? "…" : site.label)}.${site.name}`
    const verdict = judgePath(v, check.prefixes, check.relative)
    const shownPath = v.t === "str" && v.values.length === 1 ? `${call}(${JSON.stringify(v.values[0])})` : v.t === "unknown" && v.prefix !== undefined && v.prefix !== "" ? `${call}(${JSON.stringify(v.prefix)} …)` : `${call}(…)`
    const where = `${check.prefixes.join(" or ")}${check.writes ? ", where a game may write" : ""}`
    if (check.writes && (v.t === "str" || v.t === "unknown") && !isArithmetic(arg) && mayBeLoadable(site.name, v) && !keepsName(site.name, site.args, (e) => this.#judge.eval(e, fn), (name) => isLocalOf(name, fn))) this.loadableWrites.push({ ...at(site.at), shown: shownPath, mayClimb: mayClimb(v) })
    const loads = this.#idx.runtimeLoad
    if (check.writes && loads !== null && (v.t === "str" || v.t === "unknown") && writesRedirect(site.name, v)) {
      this.#judge.hit(loads.entry, site.at, shownPath, {
        note: "it writes a .remap or .import file, which the engine reads beside a res:// path from the disk when the pack has none (the working folder may be the game's user:// folder or hold it), so any load of that path, even of a file of the pack, loads what the redirect names",
        fix: "Give the file another extension (.json, .cfg, .sav): a game never needs to write a redirect",
      })
    }
    if (check.writes && loads !== null && (v.t === "str" || v.t === "unknown") && writesStartupSettings(site.name, v)) {
      this.#judge.hit(loads.entry, site.at, shownPath, {
        note: "it writes a project.godot or a default_bus_layout.tres, which the engine reads by itself at start-up from the working folder when the pack has none (the working folder may be the game's user:// folder): Godot 3 reads project.godot before the pack's project.binary, so the game's settings at the next start, its autoloads included, are what it wrote, and a bus layout's built-in script runs as it loads",
        fix: "Name the file otherwise (settings.cfg, mixer.tres): a game never needs to write either",
      })
    }
    if (verdict === "outside") {
      const path = v.t === "str" ? v.values.find((p) => judgePath(strs([p]), check.prefixes, check.relative) === "outside") : knownStrings(v).find((p) => judgePath(strs([p]), check.prefixes, false) === "outside") ?? v.t
      this.#judge.hit(entry, site.at, shownPath, check.writes || v.t !== "str" ? { note: `the path ${JSON.stringify(path ?? "")} is outside ${where}` } : {})
      return
    }
    const names = verdict === "inside" && check.writes && mayClimb(v) ? nameOnly(arg, (name) => this.#model.anyClassDefines(name), (e) => this.#judge.eval(e, fn), this.#objectFiles(), (name) => singleInit(name, fn)) : null
    if (names !== null && names.length === 0 && loads !== null && !FOLDER_OPERATIONS.has(site.name) && check.prefixes.some((prefix) => prefix.startsWith("user://")) && namesEngineReadFile(arg, (e) => this.#judge.eval(e, fn), (name) => singleInit(name, fn))) {
      // One name built at run time, with nothing after it: the whole file name, which may be a project.godot, a
      // `.remap` or an `.import` the engine reads from the working folder (a ninety-sixth red team's
      // `"user://" + str(name).get_file()` of names in the pack's data). A string of the pack's data is judged with
      // the data's strings instead (checks/writeData.ts).
      this.#judge.hit(loads.entry, site.at, shownPath, {
        note: "the file's whole name is built at run time, so it may be a project.godot, a .remap or an .import, which the engine reads from the working folder (which may be the game's user:// folder): settings or redirects of the game's own at the next start",
        fix: 'End the name with an extension of your own: "user://" + name.get_file() + ".save"',
      })
      return
    }
    if (names !== null && names.length > 0 && check.prefixes.some((prefix) => prefix.startsWith("user://"))) {
      // Names from the pack's own data (a level's id): judged with the strings that can reach them (checks/writeData.ts).
      const parts = names.flatMap((d) => (d.t === "unknown" && d.packData !== undefined && d.dataSel !== undefined ? [{ sources: d.packData, sels: d.dataSel }] : []))
      const note = `the path is built at run time from the pack's data (${[...new Set(parts.flatMap((p) => p.sources))].join(", ")}), and a ".." or "/" in it climbs out of ${where}`
      this.writeData.push({ ...at(site.at), parts, hit: { entry, ...at(site.at), severity: entry.severity, matched: shownPath, note, fix: CLIMB_FIX } })
      return
    }
    if (verdict === "inside" && check.writes && mayClimb(v) && names === null && check.prefixes.some((prefix) => prefix.startsWith("user://"))) {
      // FileAccess hands the joined path to fopen as it is: a `..` in the part built at run time leaves user:// (to the
      // game's folder too, where override.cfg adds autoloads at the next start). An error whatever the part is read
      // from: every store a game reads text back from (a ConfigFile, a file it wrote, a StreamPeerBuffer, the
      // clipboard, a LineEdit) is one the pack can fill first (a twenty-sixth red team's `set_value` then
      // `get_value`); a name the player types is the same climb, with the same fix.
      this.#judge.hit(entry, site.at, shownPath, { note: `the path is built at run time${v.t === "unknown" && v.prefix !== undefined && v.prefix !== "" ? ` from ${JSON.stringify(v.prefix)}` : ""}, and a ".." or "/" in its part built at run time climbs out of ${where} (the engine opens the path as written: a game can write beside itself an override.cfg that runs code at the next start)`, fix: CLIMB_FIX })
      return
    }
    if (verdict !== "unknown") return
    if (check.vague) {
      if (check.namesake !== undefined && check.writes) {
        // A number or `-`, `*`, `/` arithmetic is no path (list.remove(list.size() - 1)).
        if ((v.t !== "str" && v.t !== "unknown") || isArithmetic(arg)) return
        // A path from the environment or the command line names a place of the machine: no method of the pack's is
        // a reason to think it stays inside (the attacker who wrote the namesake also chose the path).
        if (isHostData(v)) {
          this.#judge.hit(entry, site.at, shownPath, { note: `the path comes from the environment or the command line, a place of the machine outside ${where}; the receiver's class is not known, and although ${check.namesake} ${site.name}(), on the engine's object this writes there`, fix: "Write under user:// with a path of your own, and type the receiver (var s: MyClass) so the call is provably not a file write" })
          return
        }
        const from = isExternal(v) ? "comes from data read at run time" : v.t === "unknown" && v.prefix !== undefined && v.prefix !== "" ? `is built at run time from ${JSON.stringify(v.prefix)}` : `(argument ${n + 1}) is not a string literal`
        this.#judge.hit(entry, site.at, shownPath, { severity: "warning", note: `the path ${from}; the receiver's class is not known and ${check.namesake} ${site.name}(), so this may be that one, but on the engine's object it can write any place outside ${where}`, fix: `Type the receiver (var s: MyClass, var items: Array) so the call is provably not a file write, or write under user://` })
        return
      }
      if (check.warnUnknown === true) this.#judge.hit(entry, site.at, shownPath, { severity: otherwise, note: `the receiver's class is not known; if it is a file opened for writing, the path ${isExternal(v) ? "comes from data read at run time" : "is built at run time"} and cannot be shown to stay inside ${where}` })
      return
    }
    const lost = check.unknownClass === undefined ? "" : `; the receiver's class is not known and no class of the pack has a ${site.name}() taking ${site.args.length} argument${site.args.length === 1 ? "" : "s"}, so it may be a ${check.unknownClass}`
    // A path from data read at run time (a file, the environment, the network) can name any place: an error for a write;
    // not an entry of a folder listing, which names one file of the folder listed (`dir.remove(file_name)`).
    if (check.writes && isExternal(v) && !(v.t === "unknown" && v.listing === true)) {
      this.#judge.hit(entry, site.at, shownPath, { note: `the path comes from data read at run time, so it can name any place outside ${where}${lost}` })
      return
    }
    const note = v.t === "unknown" && v.prefix !== undefined && v.prefix !== "" ? `the path is built at run time from ${JSON.stringify(v.prefix)}, so it cannot be shown to stay inside ${where}` : `path argument ${n + 1} is not a string literal, so it cannot be shown to stay inside ${where}`
    this.#judge.hit(entry, site.at, shownPath, { severity: otherwise, note: `${note}${lost}` })
  }

  /**
   * Who else has a method of the call's name that takes its arguments (for the message), or null: a class of the
   * pack, or a built-in Variant type whose number parameters may be given numbers (3.x Array.remove(index);
   * text, and data read at run time other than parse_json's, is no index).
   */
  #namesake(site: Site, fn: Fn): string | null {
    const { name, args } = site
    if (this.#model.anyClassAccepts(name, args.length)) return "a class of the pack defines its own"
    const variants = variantNamesakes(this.#script.grammar, name, args.length)
      .filter((v) => args.every((a, i) => !NUMBER_TYPES.has(v.types[i] ?? "") || this.#mayBeNumber(a, fn)))
      .map((v) => v.class)
    const others = variants.length - 1
    return variants.length === 0 ? null : `${variants[0]}${others > 0 ? ` (and ${others} other built-in type${others === 1 ? "" : "s"})` : ""} has a`
  }

  /** Whether an argument may be a number: not text (a string, a string built with `+` or `%`), and not data read at run time unless parse_json's. */
  #mayBeNumber(arg: Expr, fn: Fn): boolean {
    const v = this.#judge.eval(arg, fn)
    if (v.t === "lit") return true
    if (v.t !== "unknown" || (v.prefix !== undefined && v.prefix !== "") || (isExternal(v) && v.json !== true)) return false
    const text = (e: Expr): boolean => this.#judge.eval(e, fn).t === "str"
    return !(arg.k === "bin" && ((arg.op === "+" && (text(arg.left) || text(arg.right))) || (arg.op === "%" && text(arg.left))))
  }

  /** The class a file-open mode written as its constant names (`File.WRITE` → File): only that class's objects take it. */
  #classByMode(site: Site): string | null {
    for (const [call, at] of this.#idx.writeModes) {
      const dot = call.lastIndexOf(".")
      const mode = site.args[at]
      if (call.slice(dot + 1) === site.name && mode?.k === "member" && mode.obj.k === "id" && mode.obj.name === call.slice(0, dot)) return call.slice(0, dot)
    }
    return null
  }

  /** The class of the first file open of that name (File, FileAccess). */
  #anyWriteClass(name: string): string {
    for (const call of this.#idx.writeModes.keys()) if (call.slice(call.lastIndexOf(".") + 1) === name) return call.slice(0, call.lastIndexOf("."))
    return "File"
  }

  /** The mode argument of any class's file open of that name (a receiver of unknown class). */
  #anyWriteMode(name: string): number | undefined {
    for (const [call, at] of this.#idx.writeModes) if (call.slice(call.lastIndexOf(".") + 1) === name) return at
    return undefined
  }

  /** Whether a file-open mode argument may ask for writing: WRITE, READ_WRITE or WRITE_READ (2, 3, 7), or a mode that is not constant. */
  mayWrite(mode: Expr | undefined, fn: Fn): boolean {
    if (mode === undefined) return false
    // `File.READ` / `FileAccess.READ` of the engine's class only: a `READ` of the pack's own (`self.READ`, a constant of a
    // script holding File.WRITE) is judged by its value (a seventeenth red team's `f.open(p, self.READ)` wrote files).
    if (mode.k === "member" && mode.name === "READ") {
      const owner = this.#judge.eval(mode.obj, fn)
      if (owner.t === "guard" && (owner.name === "File" || owner.name === "FileAccess")) return false
    }
    const v = this.#judge.eval(mode, fn)
    return !(v.t === "lit" && typeof v.value === "number" && (v.value & 2) === 0)
  }

  runtimeLoad(site: Site, fn: Fn): void {
    const rule = this.#idx.runtimeLoad
    if (rule === null) return
    const { match } = rule
    const { name } = site
    const keys = site.bare ? [name] : [...receiverNames(site, this.#idx).map((r) => `${r}.${name}`), `*.${name}`]
    for (const key of keys) {
      for (const n of entryOf(match.calls, key) ?? []) {
        const arg = site.args[n]
        if (arg !== undefined) this.loadPath(arg, fn, `${site.bare ? "" : `${site.cls ?? "…"}.`}${name}`)
      }
    }
    // A receiver of unknown class may be ResourceLoader (handed back by a connection list, a meta, a helper):
    // judged by its path, a load from outside the pack is an error; one inside the pack, another class's load.
    if (!site.bare && site.cls === null && site.recv.t === "unknown" && !isAnyObject(site.recv)) {
      for (const n of entryOf(match.calls, `ResourceLoader.${name}`) ?? []) {
        const arg = site.args[n]
        if (arg === undefined) continue
        const v = withoutEmptyPath(this.#judge.eval(arg, fn))
        if (v !== null && (isExternal(v) || judgePath(v, match.allowedPrefixes, true) === "outside")) this.loadPath(arg, fn, `${site.label}.${name}`)
      }
    }
    if (match.scripts.includes(name) && site.args[0] !== undefined) {
      const v = this.#judge.eval(site.args[0], fn)
      // A call that may be set_script (a name that is not constant) counts only with a value that may be a script.
      if (site.via?.includes(" as ") === true && !isScriptLike(v) && !isAnyObject(v)) return
      // A string or a number is no script (the engine refuses it); a script of the pack, your own object or null is fine.
      if (v.t !== "script" && v.t !== "own" && v.t !== "str" && v.t !== "lit") {
        const external = isExternal(v) || judgePath(v, match.allowedPrefixes, true) === "outside"
        this.#judge.hit(rule.entry, site.at, `${name}(…)`, {
          severity: external ? rule.entry.severity : match.otherwise,
          note: external ? "the script comes from data read at run time or from outside the pack" : "the script cannot be shown to be one of the pack's own (a preload or a res:// load of a script in the pack)",
          fix: `Pass ${name} a script of the pack: preload("res://….gd")`,
        })
      }
    }
    if (match.objects.includes(name) && site.bare && site.args[0] !== undefined) {
      const data = site.args[0]
      const paths = data.k === "dict" ? valuesAtKey(data, "@path") : []
      const inside = paths.length > 0 && paths.every((path) => {
        const value = this.#judge.eval(path, fn)
        return value.t === "str" && value.values.every((p) => judgePath(strs([p]), match.allowedPrefixes, true) === "inside")
      })
      if (!inside) {
        this.#judge.hit(rule.entry, site.at, `${name}(…)`, { note: "the object's class and script come from data that can come from outside the pack", fix: `Rebuild the object with its class's .new() and set its fields from a Dictionary (keep the data in JSON)` })
      }
    }
  }

  /**
   * ConfigFile.load / parse (the policy's data-decoding calls and texts): the engine's variant parser
   * builds the objects the text names. A constant path of the pack or constant text is read as data
   * (contentScan); a path outside the pack or read at run time, or text that is not constant, is an error;
   * a path built at run time under a folder of the pack is `otherwise`. On a receiver of unknown class
   * (it may be another class's `load`, an Image's), a warning.
   */
  dataDecoding(site: Site, fn: Fn): void {
    const rule = this.#idx.dataDecoding
    const { recv } = site
    if (rule === null || site.bare || recv.t === "own" || recv.t === "script" || recv.t === "guard" || recv.t === "lit" || recv.t === "str") return
    const { entry, match } = rule
    const vague = site.cls === null && !isAnyObject(recv)
    const severity = (s: PatternHit["severity"]): PatternHit["severity"] => (vague ? "warning" : s)
    const vagueNote = vague ? "; the receiver's class is not known, it may be a ConfigFile" : ""
    const fix = entry.fix ?? "Keep save data in JSON"
    for (const [table, isText] of [[match.calls, false], [match.texts, true]] as const) {
      for (const [call, indexes] of Object.entries(table)) {
        const dot = call.lastIndexOf(".")
        if (call.slice(dot + 1) !== site.name || (site.cls !== null && site.cls !== call.slice(0, dot))) continue
        for (const n of indexes) {
          const arg = site.args[n]
          if (arg === undefined) continue
          const v = this.#judge.eval(arg, fn)
          const shown = `${call}(${v.t === "str" && v.values.length === 1 ? JSON.stringify((v.values[0] ?? "").slice(0, 80)) : "…"})`
          if (isText) {
            if (v.t === "str") for (const text of v.values) this.dataTexts.push({ text, ...at(site.at) })
            else this.#judge.hit(entry, site.at, shown, { severity: severity(entry.severity), note: `the text is not a constant, so it can hold Object(…) values the engine builds as it reads them${vagueNote}`, fix })
            continue
          }
          const verdict = judgePath(v, match.allowedPrefixes, false)
          const absent = verdict === "inside" ? this.#absentFromPack(v, call) : null
          if (verdict === "inside" && absent === null) {
            for (const p of v.t === "str" ? v.values : []) this.dataFiles.push({ path: packLookup(p, null, this.#script.grammar).path, ...at(site.at) })
            if (v.t !== "str") this.#judge.hit(entry, site.at, shown, { severity: severity(match.otherwise), note: `the path is built at run time under a folder of the pack; check in context which file it reads${vagueNote}`, fix })
            continue
          }
          const why = absent ?? (isExternal(v) ? "the path comes from data read at run time" : verdict === "outside" ? "the file is outside the pack (a game can write anything to user://)" : "the path cannot be shown to name a file of the pack")
          this.#judge.hit(entry, site.at, shown, { severity: severity(entry.severity), note: `${why}: the objects its text names would be built as the engine reads it${vagueNote}`, fix })
        }
      }
    }
  }

  /** A path a resource is loaded from: a res:// literal is fine; built at run time under res://, a warning; one that can be outside the pack, an error. */
  loadPath(arg: Expr, fn: Fn, call: string): void {
    this.#loadValue(this.#judge.eval(arg, fn), arg.at, call)
  }

  #loadValue(value: Val, where: Pos, call: string): void {
    const rule = this.#idx.runtimeLoad
    if (rule === null) return
    const uids = this.#withUidsResolved(value, where, call)
    const apart = uids === null ? null : this.#joinedApart(uids, call)
    if (apart !== null) {
      this.#judge.hit(rule.entry, where, `${call}(…)`, { note: apart, fix: "Write the res:// path of the script meant (preload(\"res://…\"), extends \"res://…\")" })
      return
    }
    const v = uids === null ? null : withoutEmptyPath(this.#joinedToScript(uids, call))
    if (v === null || v.t === "script" || v.t === "own" || v.t === "guard" || (v.t === "inst" && v.cls !== "GDScript")) return
    const verdict = judgePath(v, rule.match.allowedPrefixes, true)
    const shown = v.t === "str" && v.values.length === 1 ? `${call}(${JSON.stringify(v.values[0])})` : v.t === "unknown" && v.prefix !== undefined && v.prefix !== "" ? `${call}(${JSON.stringify(v.prefix)} …)` : `${call}(…)`
    const fix = "Load only paths of files in the pack (res://…); keep save data in JSON under user:// instead of resources or scripts"
    if (v.t === "unknown" && v.nul === true) {
      this.#judge.hit(rule.entry, where, shown, { note: "the path may hold a NUL character (\\u0000): the engine looks the whole path up in the pack, finds no file, and opens the part before the NUL from the disk", fix: "Remove the \\u0000 from the path; load only paths of files in the pack (res://…)" })
      return
    }
    if (verdict === "inside") {
      const absent = this.#absentFromPack(v, call)
      if (absent !== null) this.#judge.hit(rule.entry, where, shown, { note: absent, fix })
      else if (v.t !== "str") this.#judge.hit(rule.entry, where, shown, { severity: rule.match.otherwise, note: `the path is built at run time from ${JSON.stringify((v as { prefix?: string }).prefix ?? "")}; it stays under a folder of the pack, check in context what it can name`, fix, unpinnedLoad: numberedPath(v) ? "numbered" : true })
      return
    }
    if (verdict !== "outside" && (this.#fromPackData(v, where, call) || this.#dataOrBuilt(v, where, call))) return
    if (verdict === "outside" || isExternal(v)) {
      const outside = knownStrings(v).find((p) => judgePath(strs([p]), rule.match.allowedPrefixes, true) === "outside")
      const note = isExternal(v) ? "the path comes from data read at run time" : v.t === "str" || outside === undefined ? "the path is outside the pack" : `the path can be ${JSON.stringify(outside)}, outside the pack`
      this.#judge.hit(rule.entry, where, shown, { note, fix })
      return
    }
    this.#judge.hit(rule.entry, where, shown, { severity: rule.match.otherwise, note: "the path is not a literal, so it cannot be shown to stay inside the pack", fix, unpinnedLoad: true })
  }

  /**
   * A load path read from the pack's own data files along steps the analysis followed (`load(items[id]["icon"])`
   * of a res:// JSON a local File read): kept for contentScan to judge with the strings of those files that can
   * reach it (checks/loadData.ts), when every other string it may hold names a file of the pack. Not for
   * `preload`/`extends` (constants only) nor data from anywhere else.
   */
  #fromPackData(v: Val, where: Pos, call: string): boolean {
    if (v.t !== "unknown" || v.external !== true || v.packData === undefined || v.dataSel === undefined || v.host === true || v.any === true || v.prefix !== undefined) return false
    if (call === "preload" || call === "extends" || this.#absentFromPack(v, call) !== null) return false
    this.loadData.push({ sources: v.packData, sels: v.dataSel, call, ...at(where) })
    return true
  }

  /**
   * A load path that is the pack's data or a path built at run time (values.ts DataOrBuilt): each is judged, the data
   * with the strings that can reach here (fromPackData), the path built at run time by its known start (a path not
   * pinned down waits for the pack's writes: checks/unpinnedLoads.ts). Not judged on the data's strings alone.
   */
  #dataOrBuilt(v: Val, where: Pos, call: string): boolean {
    if (v.t !== "unknown" || v.dataOrBuilt === undefined || v.any === true) return false
    const { packData, dataSel, built } = v.dataOrBuilt
    const data: Val = { t: "unknown", external: true, packData, ...(dataSel === undefined ? {} : { dataSel }), ...(v.some === undefined ? {} : { some: v.some }) }
    if (!this.#fromPackData(data, where, call)) return false
    this.#loadValue({ t: "unknown", ...built }, where, call)
    return true
  }

  /**
   * The paths `preload` and `extends` name, as the engine makes them before it loads: a relative one joined to
   * the script's folder and simplified (3.x gdscript_parser.cpp: preload `if (!path.is_abs_path() && base_path
   * != "") path = base_path.plus_file(path)` then `simplify_path()`; extends `if (parent.is_rel_path()) parent =
   * base_path.plus_file(parent).simplify_path()`), so `preload("../base.gd")` from res://lib/fp/ is
   * res://lib/base.gd. A join that climbs above res:// is left as written (outside the pack). `load()` is not
   * joined: ResourceLoader::load makes a relative path `"res://" + path` (3.5.1 core/io/resource_loader.cpp,
   * `if (p_path.is_rel_path()) local_path = "res://" + p_path;`), so `load("../x")` stays outside.
   */
  #joinedToScript(v: Val, call: string): Val {
    const bases = relativeBases(this.#script)
    if (v.t !== "str" || bases.length === 0 || (call !== "preload" && call !== "extends")) return v
    const join = (p: string, from: string): string => {
      if (isAbsPath(p)) return p
      const joined = engineLookupPath(p, from)
      return untidyPath(joined)?.climbsOut === true ? p : simplifyResPath(joined)
    }
    return strs([...new Set(v.values.flatMap((p) => bases.map((from) => join(p, from))))])
  }

  /**
   * A relative `preload`/`extends` path of a built-in script whose scene or resource the engine may load by paths in
   * different folders (PackContents.loadPaths: a `.remap` or `.import` to it from another folder): the engine joins the
   * path to the folder of the one it was asked for, so it names a different file for each (a ninetieth red team's
   * `extends "k.gd"` in a remapped autoload scene, which ran a `k.gd` from the disk beside the original path).
   */
  #joinedApart(v: Val, call: string): string | null {
    const bases = relativeBases(this.#script)
    if (v.t !== "str" || bases.length < 2 || (call !== "preload" && call !== "extends")) return null
    const relative = v.values.find((p) => !isAbsPath(p))
    if (relative === undefined) return null
    const targets = bases.map((from) => resolveScriptPath(relative, from))
    return `the script is built into a scene or resource the engine may load by paths in different folders (${bases.join(", ")}, through a .remap, an .import or a remap of the settings), and it joins ${JSON.stringify(relative)} to the folder of the path it was asked for: ${targets.join(" or ")}, one of which may be read from the disk`
  }

  /**
   * Constant `uid://` paths replaced by the paths the pack's uid cache gives them (Godot 4's ResourceLoader
   * loads that path); a uid the cache cannot resolve is an error here, and null is returned when nothing is left to judge.
   */
  #withUidsResolved(v: Val, where: Pos, call: string): Val | null {
    const files = this.#model.files
    const rule = this.#idx.runtimeLoad
    if (v.t !== "str" || this.#script.grammar !== 4 || files?.resolveUid === undefined || rule === null || !v.values.some((p) => p.startsWith("uid://"))) return v
    const paths: Array<string> = []
    for (const p of v.values) {
      if (!p.startsWith("uid://")) {
        paths.push(p)
        continue
      }
      const resolved = files.resolveUid(p)
      if ("path" in resolved) paths.push(resolved.path)
      else this.#judge.hit(rule.entry, where, `${call}(${JSON.stringify(p)})`, { note: resolved.problem, fix: "Export the pack again with a stock Godot 4 editor (it writes the uid cache), or load the res:// path of a file in the pack" })
    }
    return paths.length === 0 ? null : strs(paths)
  }

  /**
   * BBCode a script gives RichTextLabel (append_bbcode, parse_bbcode, append_text, the bbcode_text or text
   * property): each path its tags load (bbcode.ts) is judged like a load() path; BBCode built at run time is a
   * warning, since its tags can name any path. `shape` is the BBCode built at run time with its parts not pinned
   * down as UNPINNED (bbcodeTemplate.ts; from the value's known start and end when not given), also given beside a
   * template of the pack's data when a data part may instead be a string built at run time (values.ts DataOrBuilt).
   */
  bbcode(value: Val, where: Pos, call: string, warnBuilt: boolean, data: BbcodeDataParts = { sources: [], constants: [] }, shape?: string): void {
    const rule = this.#idx.runtimeLoad
    if (rule === null) return
    if (value.t === "str") {
      for (const text of value.values) if (text.includes(PACK_DATA)) this.bbcodeData.push({ template: text, ...data, call, ...at(where) })
      const loads = value.values.flatMap((text) => bbcodeLoads(text, this.#script.grammar)).filter((load) => !load.path.includes(PACK_DATA))
      for (const load of loads) if (!load.path.includes(TRANSLATED)) this.#loadValue(strs([load.path]), where, `[${load.tag}] in ${call}`)
      for (const text of value.values) this.#afterTranslations(text, where, call)
      if (shape !== undefined && warnBuilt) this.#builtBbcode(shape, where, call)
      if (!loads.some((load) => load.path.includes(TRANSLATED))) return
    }
    if ((!warnBuilt && value.t !== "str") || value.t === "lit" || value.t === "own" || value.t === "script") return
    // Data read at run time put in only as numbers (`"HP: %d" % save["hp"]`: `%d` takes nothing but a number) holds no tag.
    if (value.t === "unknown" && isExternal(value) && shape !== undefined && !shape.includes(UNPINNED) && !shape.includes(PACK_DATA)) return this.#builtBbcode(shape, where, call)
    if (value.t === "unknown" && !isExternal(value)) return this.#builtBbcode(shape ?? shapeOf(value), where, call)
    this.#builtWarning(value, where, call)
  }

  /**
   * BBCode built at run time, as its shape shows it: each [img]/[font] path with a part not pinned down is a load path
   * built at run time (judged by its known start; not pinned down, it waits for the pack's writes: unpinnedLoads.ts),
   * each constant one a load path; with no such path, the warning BBCode built at run time gets (a part not pinned
   * down may still hold a whole tag).
   */
  #builtBbcode(shape: string, where: Pos, call: string): void {
    this.#afterTranslations(shape, where, call)
    const loads = bbcodeLoads(shape, this.#script.grammar)
    const unpinned = (path: string): boolean => path.includes(UNPINNED) || path.includes(DIGITS)
    const built = loads.filter((load) => unpinned(load.path))
    for (const load of loads) {
      const cut = load.path.search(/[\uFDD0\uFDD1\uFFFE\uFFFF]/)
      if (cut < 0) this.#loadValue(strs([load.path]), where, `[${load.tag}] in ${call}`)
      else if (unpinned(load.path)) {
        const last = Math.max(load.path.lastIndexOf(UNPINNED), load.path.lastIndexOf(DIGITS))
        const end = load.path.slice(last + 1)
        const part: Val = { t: "unknown", ...(cut > 0 ? { prefix: load.path.slice(0, cut) } : {}), ...(end === "" || /[\uFFFE\uFFFF]/.test(end) ? {} : { suffix: end }) }
        this.#loadValue(part, where, `[${load.tag}] in ${call}`)
      }
    }
    // Digits a `%` put in hold no tag; any other part not pinned down may hold a whole one.
    if (built.length === 0 && shape.includes(UNPINNED)) this.#builtWarning({ t: "unknown" }, where, call)
  }

  /**
   * A translation put in BBCode may end inside a tag that the constant text after it goes on with: the translation
   * "[img]" before `"user://p.tres[/img]"` loads user://p.tres (a nineteenth red team's bypass, run by godot3-server:
   * each is judged where it is stored, and neither alone names a path). So the text after each translation up to
   * the next `[` (an [img]'s path) or `]` (a [font=…]'s) is judged as a load path where it could name a file outside
   * the game's folder (a `/` or `\` in it, or a scheme or drive first: `user:`, `C:`); a plain word (`": "`, `"10:30"`)
   * names at most a file beside the game, which the pack cannot write without a write outside user://, an error of
   * its own.
   */
  #afterTranslations(text: string, where: Pos, call: string): void {
    for (let at = text.indexOf(TRANSLATED); at >= 0; at = text.indexOf(TRANSLATED, at + 1)) {
      const rest = text.slice(at + 1)
      const upTo = (stop: RegExp): string => rest.slice(0, rest.search(stop) < 0 ? rest.length : rest.search(stop))
      for (const path of new Set([upTo(/[[\uFFFF\uFFFE\uFDD0\uFDD1]/), upTo(/[[\]\uFFFF\uFFFE\uFDD0\uFDD1]/)])) {
        if (/[/\\]|^[A-Za-z]+:/.test(path)) this.#loadValue(strs([path]), where, `a tag a translation may open in ${call}`)
      }
    }
  }

  #builtWarning(value: Val, where: Pos, call: string): void {
    const rule = this.#idx.runtimeLoad
    if (rule === null) return
    this.#judge.hit(rule.entry, where, `${call}(…)`, {
      severity: isExternal(value) ? rule.entry.severity : rule.match.otherwise,
      note: `the BBCode ${isExternal(value) ? "comes from data read at run time" : "is built at run time"}, and its [img] and [font=…] tags load resources from the paths they name (a resource can carry a script); check in context that no part of it can name a path outside the pack`,
      fix: "Give RichTextLabel constant BBCode (or translations of the pack), or add images and fonts with add_image/push_font of resources loaded from res://",
      // A part not pinned down may hold a whole [img]/[font] tag: a load, an error in a pack that may write a file a load reads as code.
      ...(isExternal(value) ? {} : { unpinnedLoad: true as const }),
    })
  }

  /**
   * Why a load path that stays under res:// names no file of the pack, or null: the engine then reads the
   * path from the disk (FileAccess::fix_path makes `res://x` a path next to the game or in the working
   * folder), content nobody reviewed. A constant path must name a file of the pack as the engine looks it up
   * (packPath.ts: `load` takes a path as written, a relative one under res://; `extends` simplifies a path
   * relative to the script; `preload` simplifies any); a path known by its start, a start some file of the pack has.
   */
  #absentFromPack(v: Val, call: string): string | null {
    const files = this.#model.files
    if (files === null) return null
    const from = relativeBases(this.#script)[0] ?? null
    const grammar = this.#script.grammar
    const lookup = (p: string): PackLookup | null => {
      if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(p) && !p.startsWith("res://")) return null
      if (call === "preload" || call === "extends") {
        if (from === null && !p.startsWith("res://")) return null
        return call === "preload" ? { path: resolveScriptPath(p, from), untidy: null } : extendsLookup(p, from, grammar)
      }
      return packLookup(p, null, grammar)
    }
    for (const p of knownStrings(v)) {
      const found = lookup(p)
      if (found !== null && found.untidy !== null) return `${untidyWhy(found.untidy)} (${untidyFix(found.untidy).toLowerCase()})`
      const path = found?.path ?? null
      if (path !== null && !files.has(path)) return `${path} is not in the pack: the engine would read it from the disk (next to the game or in the working folder), content nobody reviewed`
    }
    const prefix = v.t === "unknown" && v.prefix?.startsWith("res://") === true ? v.prefix : undefined
    if (prefix === undefined) return null
    // The folders the start names in full must be in simplified form too: `res://./levels/` + name is looked up as written.
    const folders = prefix.lastIndexOf("/") > "res://".length ? packLookup(prefix.slice(0, prefix.lastIndexOf("/")), null, grammar).untidy : null
    if (folders !== null) return `the path starts with ${JSON.stringify(prefix)}, which is not in simplified form: ${untidyWhy(folders)} (write the start as ${folders.tidy}/)`
    if (!files.hasUnder(prefix)) {
      return `no file of the pack has a path starting with ${JSON.stringify(prefix)}, so the path names a file the engine would read from the disk (next to the game or in the working folder)`
    }
    return null
  }
}
