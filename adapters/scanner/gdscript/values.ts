import type { ClassRef } from "./packModel.ts"

// What the analysis knows about the value of an expression: constant strings (possibly several),
// other constants, a dangerous engine object, an instance of an engine class, an instance or the
// script of a class the pack defines, a bound method (`funcref(o, "m")`, `Callable(o, "m")`), or
// little. Of a value it cannot pin down it may still know:
// - `external`: it comes from data read at run time (a file, the command line, the network);
// - `prefix`: the start of a string built at run time;
// - `some`: strings it may hold (a member or parameter that also gets values from places out of sight);
// - `any`: it may be any object, the dangerous engine objects included (`instance_from_id(n)`, a
//   singleton fetched by a name that is not constant);
// - `insts`: engine classes it may be an instance of (a parameter some calls pass `File.new()`, a member
//   assigned a copy of a script), a script of the pack counting as `GDScript`;
// - `elems`: likewise for the elements of a container (`[load("res://a.gd").duplicate()]`);
// - `dataDir`: it is exactly `OS.get_user_data_dir()` (the folder user:// names) followed by `prefix`'s
//   rest, so what is appended or taken off it is known;
// - `plain`: it is plain data, never an object (an Array or Dictionary literal, what parse_json gives);
// - `json`: it is, or is part of, what parse_json gives: it and all it holds are plain data;
// - `sdk`: it is one of `some` or what the platform SDK passes when it calls a function of the pack (a parameter of
//   a Godot 3 handler that only the pack's connections and the SDK can reach); everything else is in sight.
// An engine object or a value not pinned down may also be `lineEdit`: it may be a SpinBox's internal LineEdit, or
// a container holding one (what reaches it: spinBoxText.ts).

export type Val =
  | { readonly t: "str"; readonly values: ReadonlyArray<string> }
  | { readonly t: "lit"; readonly value?: boolean | number | null; readonly float?: true }
  | { readonly t: "guard"; readonly name: string }
  | { readonly t: "inst"; readonly cls: string; readonly lineEdit?: true }
  | { readonly t: "own"; readonly ref: ClassRef }
  | { readonly t: "script"; readonly ref: ClassRef }
  | { readonly t: "method"; readonly target: Val; readonly name: string }
  | {
      readonly t: "unknown"
      readonly external?: true
      /**
       * An element of this constant Array or Dictionary of the pack (`ACTIONS[k]`), whose strings are not followed
       * because some code may change it (PackModel.whyNotOnlyRead): a finding on the value names why.
       */
      readonly unfollowed?: string
      readonly prefix?: string
      /** The end of a string built at run time (`dir + name + ".json"`, `"save_%d.json" % n`): what its extension is (fileRules.ts, loadable writes). */
      readonly suffix?: string
      /**
       * With `suffix`: all between the known start and end is numbers a `%` put in (`"save_%03d.json" % n`), so the end is
       * the file's. Any other part may hold a NUL (JSON's `\u0000`, a file's text, ConfigFile and str2var escapes keep it
       * in a 3.x String), at which the engine's `fopen` cuts the path: `"user://" + name + ".json"` may write `evil.tscn`.
       * The constant text between holds no `..` and no NUL either (numbersBetween): `"user://" + str(n) +
       * "/../../x"` climbs out whatever the number.
       */
      readonly digitsOnly?: true
      /**
       * Text whose every `[` starts `[lb]` or `[rb]` (`text.replace("[", "[lb]")`): shown as BBCode it opens no tag
       * (RichTextLabel shows `[lb]` as `[`, and 3.2.3, which lacks it, an unknown tag's `[` as text). Its other flags
       * still tell where it came from.
       */
      readonly tagless?: true
      /**
       * It may hold U+0000 (a `\u0000` escape Godot 3 keeps, see strs). Handed to the operating system such a path opens
       * the file named before the NUL, from the disk: a path of the pack misses the pack's file and reads one beside
       * the game (`load("res://notes.txt\u0000.gd")` ran a text file the game wrote as a script, a
       * hundred-and-eighteenth red team's).
       */
      readonly nul?: true
      readonly some?: ReadonlyArray<string>
      readonly any?: true
      readonly insts?: ReadonlyArray<string>
      readonly elems?: ReadonlyArray<string>
      readonly dataDir?: true
      readonly plain?: true
      readonly json?: true
      readonly lineEdit?: true
      /** With `external`: it may be a path of the machine outside the game's folders (the environment, the command line: `OS.get_environment("HOME")`). */
      readonly host?: true
      /** With `external`: it was all read from files of the pack (`res://a.json`, or any file under a folder: `res://dialogue/*`). */
      readonly packData?: ReadonlyArray<string>
      /** With `external`: an entry of a folder listing (Directory.get_next), one name of the folder it lists. */
      readonly listing?: true
      /** An Array whose every element is such an entry: an empty literal only ever given them (`files.append(fn)`). */
      readonly listItems?: true
      /** An empty Array or Dictionary literal (or a join of such): it holds only what is put into it (withElements). */
      readonly empty?: true
      /**
       * A new container (a literal, or made from data: `duplicate()`, `keys()`, `values()`): not the same object as any container of it,
       * so a write into it (`deck.append("fireball")` of `starter.duplicate()`) changes no reader of the data; its parts are.
       */
      readonly copy?: true
      /**
       * A container built at run time that holds no container of the pack's own data files: what parse_json makes of text
       * that is not the pack's (a save read from user://), a literal of such values, their parts, while nothing else is
       * put into them (withElements). A write into it changes no reader of the pack's data (packDataMembers.ts).
       */
      readonly noPack?: true
      /**
       * A join of paths that each cannot climb: constants with no `..` and no NUL, and strings whose parts built at run
       * time are numbers (`digitsOnly`): those values (at most MAX_ALTERNATIVES), judged one by one (a save helper called
       * with `"user://meta.json"` and `"user://slot_" + str(n) + ".json"`: a thirty-fifth hunt's).
       */
      readonly alts?: ReadonlyArray<Val>
      /** A Dictionary whose every value is a number (a date's fields: `OS.get_datetime()`). */
      readonly numberItems?: true
      /**
       * Every alternative is null, a number, a bool or a built-in value (`var selected = null` later given `Vector2(x, y)`):
       * no object and no text, so a field read of it (`selected.x`) is a number or another such value.
       */
      readonly valueOnly?: true
      /**
       * A resource of the pack loaded by a constant path that is no script (`preload("res://cfg.tres")`): a property read
       * of it is what the pack's data sets (a member of the pack's classes, or data of the pack not known).
       */
      readonly packResource?: string
      /** With `packData`: `tr()` of it, so a translation of the pack instead (bbcodeTemplate.ts: judged where stored). */
      readonly translated?: true
      /** With `packData`: which parts of those files it is, when every step that got it there was followed (see DataSel). */
      readonly dataSel?: ReadonlyArray<DataSel>
      /** What calls out of sight may pass to a parameter of the pack: anything, but no string the pack builds (see DataOrBuilt). */
      readonly unseenCalls?: true
      /** With `external` and no `packData`: it is the pack's own data or a string built at run time (see DataOrBuilt). */
      readonly dataOrBuilt?: DataOrBuilt
      readonly sdk?: true
      /**
       * The meta a RichTextLabel's `meta_clicked` passes when some BBCode of the pack puts strings of its own data in
       * links (linkMetas.ts, Evaluator.linkMetaData): one of `some` or a meta of that BBCode, a String; `sdk` here
       * when what the platform SDK passes may be it too. Read at run time (`external`) by every rule but os-shell's.
       */
      readonly linkData?: { readonly sdk: boolean }
    }

/**
 * A value that is either the pack's own data or a string built at run time from parts not pinned down
 * (`d["desc"] if c else "[font=" + x + "]"`): the data's files and selections, and the known start and end of the
 * string built at run time. It carries no `packData`, so a use that does not judge both alternatives sees data read
 * at run time (an error); BBCode and load paths judge each (FileRules.bbcode, loadValue).
 */
export interface DataOrBuilt {
  readonly packData: ReadonlyArray<string>
  readonly dataSel?: ReadonlyArray<DataSel>
  readonly built: { readonly prefix?: string; readonly suffix?: string }
}

/** Built-in value types: their constructors (`Vector2(1, 2)`) make values, never objects. */
export const VALUE_TYPES: ReadonlySet<string> = new Set([
  "bool", "int", "float", "Vector2", "Vector2i", "Vector3", "Vector3i", "Vector4", "Vector4i", "Rect2", "Rect2i", "Transform", "Transform2D", "Transform3D", "Projection", "Plane",
  "Quat", "Quaternion", "AABB", "Basis", "Color", "RID", "PoolByteArray", "PoolIntArray", "PoolRealArray", "PoolVector2Array", "PoolVector3Array", "PoolColorArray",
  "PackedByteArray", "PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array", "PackedVector2Array", "PackedVector3Array", "PackedColorArray", "PackedVector4Array",
])

/**
 * Which part of the pack's data files a value is, so that a use is judged on the strings that can reach it (a
 * load path: checks/loadData.ts): the whole text (`get_as_text`), one line (`get_line`), or the JSON the engine
 * parses from the whole text (jsonData.ts) followed by subscripts, or the Array of its lines (`split("\n")`): a key (`d["icon"]`, `d.icon`, `d.get("icon")`)
 * or, as null, any key, value, element or character (a subscript that is not one constant string, a loop, `front()`).
 */
export type DataSel =
  | { readonly form: "text" }
  | { readonly form: "line" }
  | { readonly form: "lines" }
  | { readonly form: "json"; readonly steps: ReadonlyArray<string | null> }
  /** A container the script built empty and put only these parts of the data into (`cards[c["id"]] = c`): any key or item of it is one of them. */
  | { readonly form: "items"; readonly of: ReadonlyArray<DataSel> }

/** At most this many selections, and this many subscripts deep, are followed; more is data the use cannot be judged on. */
const MAX_SELECTIONS = 8
const MAX_STEPS = 8

const WHOLE_JSON: DataSel = { form: "json", steps: [] }

/**
 * The selections one subscript further into the JSON (`step` a key, or null for any key, value or element);
 * undefined when any selection cannot be followed there (a character of the text, a subscript too deep).
 */
export const stepInto = (sels: ReadonlyArray<DataSel> | undefined, step: string | null): ReadonlyArray<DataSel> | undefined => {
  if (sels === undefined) return undefined
  const out: Array<DataSel> = []
  for (const sel of sels) {
    // An element of the text's lines (`text.split("\n")[i]`) is one line.
    if (sel.form === "lines") {
      out.push({ form: "line" })
      continue
    }
    if (sel.form === "items") {
      out.push(...sel.of)
      continue
    }
    if (sel.form !== "json" || sel.steps.length >= MAX_STEPS) return undefined
    out.push({ form: "json", steps: [...sel.steps, step] })
  }
  return out
}

/** The JSON the engine parses from a value's text (parse_json and the like: jsonData.ts): its whole, when the value is the whole text. */
export const parsedFrom = (sels: ReadonlyArray<DataSel> | undefined): ReadonlyArray<DataSel> | undefined =>
  sels !== undefined && sels.length > 0 && sels.every((s) => s.form === "text") ? [WHOLE_JSON] : undefined

/** A value read from the pack's data with its selections replaced (removed when undefined). */
export const withSel = <V extends Extract<Val, { t: "unknown" }>>(v: V, sels: ReadonlyArray<DataSel> | undefined): V => {
  const { dataSel: _old, ...rest } = v
  return (sels === undefined || v.packData === undefined ? rest : { ...rest, dataSel: sels }) as V
}

/** What a part of a value read from the pack's data keeps of it, when every selection follows `step` (else nothing). */
export const dataPart = (whole: Val, step: string | null): { readonly external?: true; readonly packData?: ReadonlyArray<string>; readonly dataSel?: ReadonlyArray<DataSel> } => {
  if (whole.t !== "unknown" || whole.packData === undefined || whole.host === true) return {}
  const sels = stepInto(whole.dataSel, step)
  return sels === undefined ? {} : { external: true, packData: whole.packData, dataSel: sels }
}

export const UNKNOWN: Val = { t: "unknown" }
export const EXTERNAL: Val = { t: "unknown", external: true }
/** What OS.get_environment and the command line give: data read at run time that may be any path of the machine. */
export const HOST_DATA: Val = { t: "unknown", external: true, host: true }
export const ANY_OBJECT: Val = { t: "unknown", any: true }
export const LIT: Val = { t: "lit" }
/** What the platform SDK passes to a function of the pack it calls (see `sdk` above). */
export const SDK_CALLS: Val = { t: "unknown", sdk: true }
export const NULL: Val = { t: "lit", value: null }
/**
 * What calls the analysis does not see may pass to a parameter of the pack (engine callbacks, calls judged by other
 * rules): anything. Beside the pack's data it is judged as before, not as a string built at run time (DataOrBuilt).
 */
export const UNSEEN_CALLS: Val = { t: "unknown", unseenCalls: true }

/** At most this many alternatives of a string are followed; more is "not constant". */
export const MAX_ALTERNATIVES = 16

/**
 * Folded strings longer than this are no method, class or path name; only their start is kept (a
 * long chain of `+` would otherwise cost quadratic time).
 */
export const MAX_FOLDED_LENGTH = 4096

/**
 * A string holding U+0000 is not folded: only what comes before it is known. The engines build no such
 * string from `char(0)` or `"%c" % 0` (String::chr copies up to the NUL, giving ""), but a `\u0000` escape
 * is kept by Godot 3's tokenizer and dropped by recent 4.x ones (`String::operator+=(char32_t)`), and the
 * engine then reads such a string whole in some places (names, comparisons) and up to the NUL in others
 * (paths handed to the OS): no one value is right, the part before the NUL is right in all of them.
 */
const NUL = "\u0000"

export const strs = (values: ReadonlyArray<string>): Val => {
  if (values.some((v) => v.includes(NUL))) {
    const starts = values.map((v) => (v.includes(NUL) ? v.slice(0, v.indexOf(NUL)) : v))
    let prefix = starts[0] ?? ""
    for (const s of starts) while (!s.startsWith(prefix)) prefix = prefix.slice(0, -1)
    return prefix === "" ? { t: "unknown", nul: true } : { t: "unknown", prefix: prefix.slice(0, MAX_FOLDED_LENGTH), nul: true }
  }
  if (values.length > MAX_ALTERNATIVES) return { t: "unknown", some: [...new Set(values)].slice(0, MAX_ALTERNATIVES) }
  const long = values.find((v) => v.length > MAX_FOLDED_LENGTH)
  if (long !== undefined) return values.length === 1 ? { t: "unknown", prefix: long.slice(0, MAX_FOLDED_LENGTH) } : UNKNOWN
  return { t: "str", values: values.length === 1 ? values : [...new Set(values)] }
}

export const isString = (v: Val): v is Extract<Val, { t: "str" }> => v.t === "str"

/** Classes of scripts: their source can be replaced (`source_code`) and reloaded. */
export const SCRIPT_CLASSES: ReadonlySet<string> = new Set(["Script", "GDScript", "CSharpScript", "VisualScript", "NativeScript", "PluginScript"])

/** A part of `whole` (`step` its key, or null for any): its selections of the pack's data one step further. */
const partOf = <V extends Extract<Val, { t: "unknown" }>>(part: V, whole: Val, step: string | null): V => withSel(part, stepInto(whole.t === "unknown" ? whole.dataSel : undefined, step))

/** JSON data that is all of `whole` as far as its strings go (`keys()`, `values()`, `duplicate()`): plain data, external when the whole is. */
export const JSON_COPY = (whole: Val): Extract<Val, { t: "unknown" }> => ({ t: "unknown", plain: true, json: true, ...externalParts([whole]), ...noPackOf(whole), copy: true })

/** A part of JSON data (an element, a field; `step` the key, or null for any): plain data, external when the whole is. */
export const JSON_PART = (whole: Val, step: string | null = null): Extract<Val, { t: "unknown" }> => partOf({ t: "unknown", plain: true, json: true, ...externalParts([whole]), ...noPackOf(whole) }, whole, step)

/** Engine classes a Script is an instance of besides the script classes (its bases that say something). */
const SCRIPT_BASES: ReadonlySet<string> = new Set(["Resource"])

/**
 * Whether a receiver may be a Script: a script, an engine object of a script class or one of its bases, or a
 * value the analysis lost (that is not plain data). Self, the pack's instances, nodes, constants and objects
 * of other engine classes are provably not.
 */
export const mayHoldScript = (v: Val): boolean => {
  if (v.t === "unknown") return v.plain !== true
  if (v.t === "inst") return SCRIPT_CLASSES.has(v.cls) || SCRIPT_BASES.has(v.cls)
  return v.t === "script"
}

/** Null, a number, a bool or a built-in value (Vector2, Color, …), or a join of only those (`valueOnly`): no object, no text. */
export const isBuiltInValue = (v: Val): boolean =>
  (v.t === "lit" && typeof v.value !== "string") || (v.t === "inst" && VALUE_TYPES.has(v.cls)) || (v.t === "unknown" && v.valueOnly === true)

/** Plain data: a constant (a string, a number, a bool, null) or a value known to be no object (`plain`). */
export const isPlainData = (v: Val): boolean => v.t === "str" || v.t === "lit" || (v.t === "unknown" && v.plain === true)

/** Plain data all of whose parts are too: a constant, or JSON data (`json`). */
const isJsonData = (v: Val): boolean => v.t === "str" || v.t === "lit" || (v.t === "unknown" && v.json === true)

/** Whether a value written to a property may be text (a script's source): a string, or a value not pinned down (not one of only numbers and built-in values). */
export const mayBeText = (v: Val): boolean => v.t === "str" || (v.t === "unknown" && v.valueOnly !== true)

/** At most this many engine classes are kept for a value that may be an instance of several. */
export const MAX_CLASSES = 8

/** Engine classes a value may be an instance of (a script of the pack counts as GDScript). */
export const instsOf = (v: Val): ReadonlyArray<string> => (v.t === "inst" ? [v.cls] : v.t === "script" ? ["GDScript"] : v.t === "unknown" ? (v.insts ?? []) : [])

/** A script, or a value that may be one: its `source_code` can be replaced. */
export const mayBeScript = (v: Val): boolean => instsOf(v).some((c) => SCRIPT_CLASSES.has(c))

/**
 * What one element of a container holds (`step` its key when it is one constant string, else null): the classes its
 * elements may be instances of; any object for a container of any objects.
 */
export const elementOf = (container: Val, step: string | null = null): Extract<Val, { t: "unknown" }> => {
  // An element of what may be any value: any object, and data read at run time where the value may be that.
  if (container.t === "unknown" && container.any === true) return { t: "unknown", any: true, ...readFrom([container]) }
  if (container.t === "unknown" && container.json === true) return JSON_PART(container, step)
  if (container.t === "unknown" && container.listItems === true) return { t: "unknown", external: true, listing: true }
  if (container.t === "unknown" && container.numberItems === true) return { t: "unknown", digitsOnly: true }
  const elems = container.t === "unknown" ? container.elems : undefined
  const some = container.t === "unknown" ? container.some : undefined
  // An element of data read from the pack's own files is one of its parts (a field, a line).
  const base = partOf({ t: "unknown" as const, ...externalParts([container]), ...(isLineEdit(container) ? { lineEdit: true as const } : {}) }, container, step)
  return { ...base, ...(elems === undefined ? {} : { insts: elems }), ...(some === undefined ? {} : { some }) }
}

/**
 * A container also given these values as elements (`list.append(Directory.new())`, `d[k] = v`): its elements may
 * be of their classes too. What it holds is no longer all plain data (JSON's) once one of them, or of the values
 * written into its parts (`d["a"]["b"] = v`), may be something else.
 */
export const withElements = (container: Val, put: ReadonlyArray<Val>, parts: ReadonlyArray<Val> = []): Val => {
  const classes = put.flatMap(instsOf)
  if (container.t !== "unknown" || container.any === true) return container
  // A date's fields stay numbers only while nothing but numbers goes in (a twenty-ninth red team's `t.year = "../…"`).
  if (container.numberItems === true && ![...put, ...parts].every(isNumberLike)) {
    const { numberItems: _numbers, ...others } = container
    return withElements(others, put, parts)
  }
  // An Array of listing entries stays one only while nothing else goes in (`files.append(fn)` is a put and a part).
  if (container.listItems === true && ![...put, ...parts].every((v) => v.t === "unknown" && v.listing === true)) {
    const { listItems: _items, ...others } = container
    return withElements(others, put, parts)
  }
  // An empty start only ever given parts of the pack's data, keys included (`cards[c["id"]] = c`, `lines.append(l)`): a
  // container of those parts, any key or item of it judged with them (a forty-ninth hunt's card table).
  if (container.empty === true && parts.length === 0 && put.length > 0 && put.every(isPackPart)) return packItems(put)
  // A container of no pack data stays one only while nothing that may be one goes in (`save[k] = Global.items`).
  if (container.noPack === true && ![...put, ...parts].every(holdsNoPack)) {
    const { noPack: _fresh, ...others } = container
    return withElements(others, put, parts)
  }
  // Data of the pack's files the script writes into is no longer the files': what is put in is not judged with their
  // strings (a forty-third red team's `lines[0] = "[img]…"` of a file's lines, then shown as BBCode), so it is data
  // read at run time; numbers put in (`q["progress"] = 0` of a quest, a forty-fifth hunt's) hold no text.
  if (container.packData !== undefined && put.length + parts.length > 0 && ![...put, ...parts].every(isNumberLike)) {
    const { packData: _files, dataSel: _sel, translated: _tr, ...others } = container
    return withElements({ ...others, external: true }, put, parts)
  }
  // Once anything else is put in, it is no longer empty.
  if (container.empty === true && put.length + parts.length > 0) {
    const { empty: _empty, ...filled } = container
    return withElements(filled, put, parts)
  }
  const mixed = container.json === true && [...put, ...parts].some((v) => !isJsonData(v))
  if (classes.length === 0 && !mixed) return container
  const { json: _json, ...rest } = container
  return classes.length === 0 ? rest : { ...rest, elems: union(container.elems ?? [], classes) ?? classes }
}

/** A number or a bool: a literal of one, a value typed so, or text of digits alone. */
export const isNumberLike = (v: Val): boolean =>
  (v.t === "lit" && typeof v.value !== "string") || (v.t === "inst" && (v.cls === "int" || v.cls === "float" || v.cls === "bool")) || (v.t === "unknown" && v.digitsOnly === true && v.prefix === undefined && v.suffix === undefined)

const union = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): ReadonlyArray<string> | undefined => {
  const all = [...new Set([...a, ...b])].slice(0, MAX_CLASSES)
  return all.length === 0 ? undefined : all
}

export const isExternal = (v: Val): boolean => v.t === "unknown" && v.external === true

/** At most this many files of the pack are kept as the source of data read at run time; more is data from anywhere. */
const MAX_DATA_SOURCES = 16

/**
 * What a value that is one of its parts keeps of their being read at run time (a variable given either, an
 * element of JSON): external when any part is, pack data when every such part is. A value built from parts
 * (`derived`) is not one of them and is never pack data: its text may be any mix of theirs.
 */
export const externalParts = (parts: ReadonlyArray<Val>): { readonly external?: true; readonly packData?: ReadonlyArray<string>; readonly host?: true; readonly dataSel?: ReadonlyArray<DataSel> } => {
  const read = parts.filter(isExternal)
  if (read.length === 0) return {}
  if (read.some(isHostData)) return { external: true, host: true }
  const sources = read.map((p) => (p.t === "unknown" ? p.packData : undefined))
  const all = sources.every((x): x is ReadonlyArray<string> => x !== undefined) ? [...new Set(sources.flat())] : []
  if (all.length === 0 || all.length > MAX_DATA_SOURCES) return { external: true }
  // Any of the parts' selections, when each part's are known.
  const sels = read.map((p) => (p.t === "unknown" ? p.dataSel : undefined))
  const known = sels.every((x): x is ReadonlyArray<DataSel> => x !== undefined) ? [...new Map(sels.flat().map((s) => [JSON.stringify(s), s])).values()] : []
  return known.length === 0 || known.length > MAX_SELECTIONS ? { external: true, packData: all } : { external: true, packData: all, dataSel: known }
}

/** A container that is not one of the pack's data itself: a new one (`copy`), or one holding none of its data (`noPack`). */
const isNewContainer = (v: Val): boolean => v.t === "unknown" && (v.copy === true || v.noPack === true)

/** A part of the pack's own data files, nothing else (no translation of it, no string built at run time beside it). */
const isPackPart = (v: Val): boolean => v.t === "unknown" && v.external === true && v.packData !== undefined && v.host !== true && v.any !== true && v.translated !== true && v.dataOrBuilt === undefined

/** A container holding only these parts of the pack's data (withElements): its items are judged with their selections. */
const packItems = (put: ReadonlyArray<Val>): Val => {
  const parts = externalParts(put)
  const sel = parts.dataSel === undefined ? {} : { dataSel: [{ form: "items" as const, of: parts.dataSel }] }
  return { t: "unknown", plain: true, ...(put.every(isJsonData) ? { json: true as const } : {}), external: true, ...(parts.packData === undefined ? {} : { packData: parts.packData }), ...sel, copy: true }
}

/** Whether a value may be a path of the machine read at run time (HOST_DATA, or built from it). */
export const isHostData = (v: Val): boolean => v.t === "unknown" && v.host === true

/** May be any object, OS and the other dangerous engine objects included. */
export const isAnyObject = (v: Val): boolean => v.t === "unknown" && v.any === true

const sameRef = (a: ClassRef, b: ClassRef): boolean => a.script === b.script && a.inner.join(".") === b.inner.join(".")

/** Strings a value is known to possibly hold. */
export const knownStrings = (v: Val): ReadonlyArray<string> => (v.t === "str" ? v.values : v.t === "unknown" ? (v.some ?? []) : [])

/** Whether a value can stand for a dangerous engine object once it is no longer pinned down. */
const mayBeEngineObject = (v: Val): boolean => v.t === "guard" || isAnyObject(v) || (v.t === "method" && mayBeEngineObject(v.target))

const sameVal = (a: Val, b: Val): boolean => {
  if (a.t !== b.t) return false
  switch (a.t) {
    case "guard":
      return a.name === (b as typeof a).name
    case "inst":
      return a.cls === (b as typeof a).cls
    case "own":
    case "script":
      return sameRef(a.ref, (b as typeof a).ref)
    case "method":
      return a.name === (b as typeof a).name && sameVal(a.target, (b as typeof a).target)
    default:
      return false
  }
}

/** Whether a value may be a SpinBox's internal LineEdit or hold one (spinBoxText.ts). */
export const isLineEdit = (v: Val): boolean => (v.t === "inst" || v.t === "unknown") && v.lineEdit === true

/** A value that may also be a SpinBox's internal LineEdit or hold one, when `may` (an engine object or a value not pinned down). */
export const asLineEdit = (v: Val, may = true): Val => (may && (v.t === "inst" || v.t === "unknown") ? { ...v, lineEdit: true } : v)

/** A string built at run time from parts not pinned down: not read from anywhere, no plain data, no object, nothing the SDK or calls out of sight pass. */
const isBuilt = (v: Val): v is Extract<Val, { t: "unknown" }> =>
  v.t === "unknown" && v.external !== true && v.plain !== true && v.sdk !== true && v.unseenCalls !== true && v.any !== true && v.insts === undefined && v.elems === undefined

/** A value's known start: the common start of its strings, or a string built at run time's own. */
export const startOf = (v: Val): string | undefined => {
  if (v.t === "unknown") return v.prefix
  if (v.t !== "str" || v.values.length === 0) return undefined
  let start = v.values[0] ?? ""
  for (const x of v.values) while (!x.startsWith(start)) start = start.slice(0, -1)
  return start
}

/** The common start of two known starts (undefined when either is not known). */
export const commonStart = (a: string | undefined, b: string | undefined): string | undefined => {
  if (a === undefined || b === undefined) return undefined
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  return i === 0 ? undefined : a.slice(0, i)
}

const commonEnd = (a: string | undefined, b: string | undefined): string | undefined => {
  if (a === undefined || b === undefined) return undefined
  let i = 0
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++
  return i === 0 ? undefined : a.slice(a.length - i)
}

/**
 * The join of the pack's own data with a string built at run time (either side may already be such a join), or null
 * when the two are not that: a side read from anywhere else makes the join data read at run time (externalParts).
 */
const dataOrBuilt = (a: Val, b: Val): DataOrBuilt | null => {
  const data: Array<Pick<DataOrBuilt, "packData" | "dataSel">> = []
  const built: Array<DataOrBuilt["built"]> = []
  for (const v of [a, b]) {
    if (v.t !== "unknown") continue
    if (v.dataOrBuilt !== undefined) {
      data.push(v.dataOrBuilt)
      built.push(v.dataOrBuilt.built)
    } else if (v.external === true) {
      if (v.packData === undefined || v.host === true || v.any === true) return null
      data.push({ packData: v.packData, ...(v.dataSel === undefined ? {} : { dataSel: v.dataSel }) })
    } else if (isBuilt(v)) built.push({ ...(v.prefix === undefined ? {} : { prefix: v.prefix }), ...(v.suffix === undefined ? {} : { suffix: v.suffix }) })
  }
  const sources = [...new Set(data.flatMap((d) => d.packData))]
  if (data.length === 0 || built.length === 0 || sources.length > MAX_DATA_SOURCES) return null
  const sels = data.map((d) => d.dataSel)
  const known = sels.every((x): x is ReadonlyArray<DataSel> => x !== undefined) ? [...new Map(sels.flat().map((s) => [JSON.stringify(s), s])).values()] : []
  const [first, ...rest] = built
  const prefix = rest.reduce((p, x) => commonStart(p, x.prefix), first?.prefix)
  const suffix = rest.reduce((s, x) => commonEnd(s, x.suffix), first?.suffix)
  return {
    packData: sources,
    ...(known.length === 0 || known.length > MAX_SELECTIONS ? {} : { dataSel: known }),
    built: { ...(prefix === undefined ? {} : { prefix }), ...(suffix === undefined ? {} : { suffix }) },
  }
}

/** The value of a variable assigned `a` in one place and `b` in another. */
export const join = (a: Val, b: Val): Val => {
  if (a.t === "str" && b.t === "str") return strs([...a.values, ...b.values])
  if (a.t === "lit" && b.t === "lit") return a.value === b.value ? a : LIT
  if (sameVal(a, b)) return asLineEdit(a, isLineEdit(b))
  const known = [...new Set([...knownStrings(a), ...knownStrings(b)])]
  const some = known.slice(0, MAX_ALTERNATIVES)
  const insts = union(instsOf(a), instsOf(b))
  const elems = union(a.t === "unknown" ? (a.elems ?? []) : [], b.t === "unknown" ? (b.elems ?? []) : [])
  // The pack's data joined with a string built at run time is judged as both where a use knows how (DataOrBuilt).
  const mixed = dataOrBuilt(a, b)
  // The start both share (a path's `"user://"` kept through `path = path + "../"`), when each has a known one.
  const start = commonStart(startOf(a), startOf(b))
  const alts = joinedPaths(a, b)
  return {
    t: "unknown",
    ...(start === undefined || start === "" ? {} : { prefix: start }),
    ...alts,
    ...(mixed === null ? externalParts([a, b]) : { external: true as const, dataOrBuilt: mixed }),
    ...(some.length > 0 ? { some } : {}),
    ...(mayBeEngineObject(a) || mayBeEngineObject(b) ? { any: true } : {}),
    ...(insts === undefined ? {} : { insts }),
    ...(elems === undefined ? {} : { elems }),
    // A constant is plain data too: `return null` beside `return parse_json(text)` gives plain data.
    ...(isPlainData(a) && isPlainData(b) ? { plain: true as const } : {}),
    ...(isJsonData(a) && isJsonData(b) ? { json: true as const } : {}),
    ...(isBuiltInValue(a) && isBuiltInValue(b) ? { valueOnly: true as const } : {}),
    ...(holdsNoPack(a) && holdsNoPack(b) ? { noPack: true as const } : {}),
    // Entries of folder listings on both sides (`var fn = dir.get_next()` and again in the loop), or Arrays of them.
    ...(a.t === "unknown" && a.listing === true && b.t === "unknown" && b.listing === true ? { listing: true as const } : {}),
    ...(a.t === "unknown" && a.listItems === true && b.t === "unknown" && b.listItems === true ? { listItems: true as const } : {}),
    ...(a.t === "unknown" && a.empty === true && b.t === "unknown" && b.empty === true ? { empty: true as const } : {}),
    ...(isNewContainer(a) && isNewContainer(b) ? { copy: true as const } : {}),
    ...(isLineEdit(a) || isLineEdit(b) ? { lineEdit: true as const } : {}),
    ...(sdkOrStrings(a) && sdkOrStrings(b) && known.length <= MAX_ALTERNATIVES ? { sdk: true as const } : {}),
    ...linkDataOf(a, b, known.length),
  }
}

/** A path that cannot climb out of its start's folder (`alts`): the values it is, or null. */
const pathsOf = (v: Val): ReadonlyArray<Val> | null => {
  if (v.t === "str") return numbersBetween(...v.values) ? [v] : null
  if (v.t !== "unknown") return null
  if (v.alts !== undefined) return v.alts
  return v.digitsOnly === true && v.prefix !== undefined ? [v] : null
}

/** `alts` of a join of two such paths, and the end they share (trusted as the file's: no part of any can cut it short). */
const joinedPaths = (a: Val, b: Val): { readonly alts?: ReadonlyArray<Val>; readonly suffix?: string } => {
  const left = pathsOf(a)
  const right = pathsOf(b)
  if (left === null || right === null || left.length + right.length > MAX_ALTERNATIVES) return {}
  const alts = [...left, ...right]
  const ends = alts.map((v) => (v.t === "unknown" ? v.suffix : endOf(v).suffix))
  const end = ends.reduce((x, y) => commonEnd(x, y))
  return { alts, ...(end === undefined || end === "" ? {} : { suffix: end }) }
}

/** A value that is or holds no container of the pack's data: a constant, a number, or a `noPack` container. */
export const holdsNoPack = (v: Val): boolean => v.t === "str" || v.t === "lit" || isNumberLike(v) || (v.t === "unknown" && v.noPack === true)

/** `noPack` kept by what is taken out of a container (an element, a part, a copy). */
const noPackOf = (container: Val): { readonly noPack?: true } => (container.t === "unknown" && container.noPack === true ? { noPack: true } : {})

/** Constant strings, what the SDK passes, or link metas of the pack's data (`linkData`). */
const linkOrStrings = (v: Val): boolean => sdkOrStrings(v) || (v.t === "unknown" && v.linkData !== undefined)

/** A join of link metas of the pack's data with constant strings or what the SDK passes keeps being that (`linkData`). */
const linkDataOf = (a: Val, b: Val, known: number): { readonly linkData?: { readonly sdk: boolean } } => {
  const links = [a, b].flatMap((v) => (v.t === "unknown" && v.linkData !== undefined ? [v.linkData] : []))
  if (links.length === 0 || !linkOrStrings(a) || !linkOrStrings(b) || known > MAX_ALTERNATIVES) return {}
  const sdk = links.some((l) => l.sdk) || [a, b].some((v) => v.t === "unknown" && v.sdk === true)
  return { linkData: { sdk } }
}

/** Constant strings, or strings and what the SDK passes (`sdk`): their join is still only that. */
const sdkOrStrings = (v: Val): boolean =>
  v.t === "str" || (v.t === "unknown" && v.sdk === true && v.external !== true && v.prefix === undefined && v.any !== true && v.insts === undefined && v.elems === undefined && v.lineEdit !== true)

/** The strings a value holds besides what the platform SDK may pass (`sdk`), or null when anything else may reach it. */
export const stringsBesidesSdk = (v: Val): ReadonlyArray<string> | null => (v.t === "unknown" && sdkOrStrings(v) ? (v.some ?? []) : null)

/** The join of several values; `empty` when there are none. */
export const joinAll = (values: ReadonlyArray<Val>, empty: Val = UNKNOWN): Val => (values.length === 0 ? empty : values.reduce(join))

/**
 * Whether constant text put between numbers keeps a `digitsOnly` string's promise: no `..` to climb out with and no NUL
 * to cut the path at (a number's text never starts or ends with a point, so a `..` can only come from the text itself).
 */
export const numbersBetween = (...texts: ReadonlyArray<string>): boolean => texts.every((t) => !t.includes("..") && !t.includes("\u0000"))

/** The end a string built with `+` or `%` gets from its last part: a constant's (the common end of its alternatives) or a built string's own. */
export const endOf = (last: Val): { readonly suffix?: string } => {
  if (last.t === "unknown") return last.suffix === undefined ? {} : { suffix: last.suffix }
  if (last.t !== "str" || last.values.length === 0) return {}
  let end = last.values[0] ?? ""
  for (const v of last.values) while (!v.endsWith(end)) end = end.slice(1)
  return end === "" ? {} : { suffix: end }
}

/** A value built from parts: external when any part is. */
export const derived = (...parts: ReadonlyArray<Val>): Extract<Val, { t: "unknown" }> => ({ t: "unknown", ...readFrom(parts) })

/** What a value built from parts keeps of their being read at run time: external when any part is, a path of the machine when any part may be. */
export const readFrom = (parts: ReadonlyArray<Val>): { readonly external?: true; readonly host?: true; readonly nul?: true } => ({
  ...(parts.some(isHostData) ? { external: true, host: true } : parts.some(isExternal) ? { external: true } : {}),
  ...(parts.some((p) => p.t === "unknown" && p.nul === true) ? { nul: true } : {}),
})

/** How the engine converts a constant to a bool: a number is true unless it is zero (NaN is true), a string unless it is empty. */
export const godotTruth = (x: boolean | number | null | string): boolean => (typeof x === "number" ? x !== 0 : typeof x === "string" ? x !== "" : x === true)

/**
 * A number literal as the engine reads it (`1_000`, `0xFF`, `0b101`, `1e3`, `PI`), or null when its
 * value is not followed. Integers are int64 in the engine: one beyond 2^53 has no exact double, so it
 * is not folded (nor is a sum that leaves that range, see evaluate.ts). A float is folded only where
 * every correct decimal reader gives the same double (at most 15 significant digits and a power of ten
 * within 10^±22: one exact division or product), so the engine's own reader (String::to_double) agrees.
 */
export const numberLiteral = (text: string): { readonly value: number; readonly float: boolean } | null => {
  const named: Readonly<Record<string, number>> = { PI: Math.PI, TAU: 2 * Math.PI, INF: Number.POSITIVE_INFINITY, NAN: Number.NaN }
  if (Object.hasOwn(named, text)) return { value: named[text] as number, float: true }
  const t = text.replaceAll("_", "")
  const int = (value: number): { readonly value: number; readonly float: boolean } | null => (Number.isSafeInteger(value) ? { value, float: false } : null)
  if (/^0[xX][0-9a-fA-F]+$/.test(t)) return int(Number.parseInt(t.slice(2), 16))
  if (/^0[bB][01]+$/.test(t)) return int(Number.parseInt(t.slice(2), 2))
  const m = /^(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?$/.exec(t)
  if (m === null || !/\d/.test(t) || !/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null
  if (!/[.eE]/.test(t)) return int(Number(t))
  const digits = `${m[1] ?? ""}${m[2] ?? ""}`.replace(/^0+/, "")
  const exponent = Number(m[3] ?? "0") - (m[2] ?? "").length
  if (digits.length > 15 || Math.abs(exponent) > 22) return null
  return { value: Number(t), float: true }
}

/** An int the engine and a double agree on: a sum or difference of two is folded only when it stays in this range. */
export const exactInt = (n: number): boolean => Number.isSafeInteger(n)

/** Whether a value is true when the engine converts it to a bool: true, false, or null when that is not known. */
export const truthOf = (v: Val): boolean | null => {
  if (v.t === "lit") return v.value === undefined ? null : godotTruth(v.value)
  if (v.t === "str") return v.values.every((s) => s !== "") ? true : v.values.every((s) => s === "") ? false : null
  return null
}

/**
 * A path stays inside when it starts with an allowed prefix (or, for methods of an opened
 * directory and for res:// loads, is relative) and has no `..` segment. A path known only by its
 * start is judged on what that start already proves; a path that may be one of several known
 * strings is outside when one of them is.
 */
export const judgePath = (v: Val, allowedPrefixes: ReadonlyArray<string>, relativeAllowed: boolean): "inside" | "outside" | "unknown" => {
  const one = (path: string, whole: boolean): "inside" | "outside" | "unknown" => {
    if (path.split(/[/\\]/).includes("..")) return "outside"
    if (allowedPrefixes.some((p) => path.startsWith(p))) return "inside"
    if (/^([/\\~]|[A-Za-z]:|[A-Za-z][A-Za-z0-9+.-]*:\/\/)/.test(path)) return "outside"
    if (whole) return relativeAllowed && path.length > 0 ? "inside" : "outside"
    // Only the start is known. A scheme waiting for its slashes (`"user:/" + x` is user://…) is that scheme.
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/?$/.exec(path)?.[1]
    if (scheme !== undefined) return allowedPrefixes.includes(`${scheme}://`) ? "unknown" : "outside"
    // A relative start proves the path stays relative only once its first segment is complete and no scheme or drive.
    const slash = path.search(/[/\\]/)
    return relativeAllowed && slash > 0 && !path.slice(0, slash).includes(":") ? "inside" : "unknown"
  }
  if (v.t === "str") {
    const verdicts = v.values.map((p) => one(p, true))
    return verdicts.includes("outside") ? "outside" : verdicts.includes("unknown") ? "unknown" : "inside"
  }
  if (v.t !== "unknown") return "unknown"
  if (v.alts !== undefined) {
    const verdicts = v.alts.map((alt) => judgePath(alt, allowedPrefixes, relativeAllowed))
    return verdicts.includes("outside") ? "outside" : verdicts.includes("unknown") ? "unknown" : "inside"
  }
  if ((v.some ?? []).some((p) => one(p, true) === "outside")) return "outside"
  if (v.prefix !== undefined && v.prefix !== "") return one(v.prefix, false)
  return "unknown"
}
