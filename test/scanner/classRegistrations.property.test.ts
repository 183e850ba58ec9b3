// Global class registrations read as the engine reads them (adapters/scanner/checks/classRegistrations.ts). Random
// lists of entries, their keys in any order, with extra keys holding nested dictionaries and arrays (some with keys
// named like the four the engine reads), a key written twice, entries lacking a required key, and names registered
// more than once, in Godot 3's project.godot text, Godot 3's project.binary and Godot 4's class cache. The expected
// verdicts come from a model of ScriptServer::init_languages written here: a Dictionary keeps the last value of a key
// (VariantParser, decode_variant), an entry counts only with class, language, path and base
// (core/script_language.cpp:161 of 3.5, core/object/script_language.cpp:285 of 4.x), the last entry of a name wins
// (add_global_class overwrites), and a class whose registered bases end at ResourceFormatLoader or
// ResourceFormatSaver is loaded at every start (core/io/resource_loader.cpp:936-953, resource_saver.cpp:231-248).
// Bases name only natives or classes listed before (no cycle can form, so the engine's cycle check never applies).
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { engineClasses, readClassEntries } from "../../adapters/scanner/checks/classRegistrations.ts"
import { projectSettingsFindings } from "../../adapters/scanner/checks/projectSettingsCheck.ts"
import { utf8 } from "./support/bytes.ts"
import { lines } from "./fixtures/godotProjects.ts"
import { writePack } from "./support/packWriter.ts"
import { type SettingValue, variant3, writeProjectBinary, writeProjectBinaryVariants } from "./support/projectBinaryWriter.ts"
import { scanBytes } from "./support/scan.ts"

const NAMES = ["Alpha", "Beta", "Gamma"] as const
const NATIVES = ["Reference", "ResourceFormatLoader", "ResourceFormatSaver"] as const
const IN_PACK = ["res://game/a.gd", "res://game/b.gd"] as const
const MISSING = ["res://gone/x.gd", "res://.local/share/godot/app_userdata/G/y.gd"] as const
const OUTSIDE = "user://evil.gd"
const REQUIRED = ["class", "base", "language", "path"] as const

type Form = "godot3-text" | "godot3-binary" | "godot4-cache"
type Pair = readonly [key: string, value: SettingValue, stringName: boolean]
type Entry = ReadonlyArray<Pair>

const leaf: fc.Arbitrary<SettingValue> = fc.oneof(fc.constantFrom("x", "res://q.gd", "path", "class", ""), fc.integer({ min: 0, max: 9 }))
const nested: fc.Arbitrary<SettingValue> = fc.oneof(
  leaf,
  fc.array(leaf, { maxLength: 3 }),
  fc.array(fc.tuple(fc.constantFrom("path", "class", "a"), fc.oneof(leaf, fc.array(leaf, { maxLength: 2 }))), { maxLength: 2 }).map((dict) => ({ dict })),
)

/** One Dictionary: the four keys (some left out), extra keys, perhaps an earlier `path` the later one replaces, in a random order. */
const entry: fc.Arbitrary<Entry> = fc
  .record({
    name: fc.nat({ max: NAMES.length - 1 }),
    baseChoice: fc.nat({ max: 10 }),
    path: fc.constantFrom(...IN_PACK, ...MISSING, OUTSIDE),
    decoy: fc.option(fc.constantFrom(...IN_PACK, ...MISSING, OUTSIDE), { freq: 3 }),
    drop: fc.option(fc.constantFrom(...REQUIRED), { freq: 6 }),
    extras: fc.array(fc.tuple(fc.constantFrom("meta", "icon", "is_tool", "x"), nested), { maxLength: 3 }),
    stringNames: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    order: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  })
  .map(({ name, baseChoice, path, decoy, drop, extras, stringNames, order }) => {
    // A base is a native or a class listed before this one.
    const bases = [...NATIVES, ...NAMES.slice(0, name)]
    const required: Array<readonly [string, SettingValue]> = [["class", NAMES[name] as string], ["base", bases[baseChoice % bases.length] as string], ["language", "GDScript"], ["path", path]]
    const kept = required.filter(([key]) => key !== drop)
    const shuffled = [...kept, ...extras].map((pair, i) => ({ pair, rank: order[i % order.length] ?? 0, i })).sort((a, b) => a.rank - b.rank || a.i - b.i).map((x) => x.pair)
    const pairs: Array<readonly [string, SettingValue]> = decoy === null ? shuffled : [["path", decoy], ...shuffled]
    // A path written twice: the decoy must come before the path it hides (a Dictionary keeps the last).
    if (decoy !== null && drop !== "path") {
      const at = pairs.findIndex(([key], i) => key === "path" && i > 0)
      const [real] = pairs.splice(at, 1)
      if (real !== undefined) pairs.push(real)
    }
    return pairs.map(([key, value], i): Pair => [key, value, stringNames[i % stringNames.length] === true])
  })

/** A value as project.binary's decoder prints it (and as this test writes project.godot): Godot 3 or 4 syntax. */
const render = (value: SettingValue, godot: 3 | 4): string => {
  if (typeof value === "string") return JSON.stringify(value)
  if (typeof value === "number") return String(value)
  if ("dict" in value) return value.dict.length === 0 ? "{}" : `{\n${value.dict.map(([k, v]) => `${render(k, godot)}: ${render(v, godot)}`).join(",\n")}\n}`
  return godot === 3 ? `[ ${value.map((v) => render(v, godot)).join(", ")} ]` : `[${value.map((v) => render(v, godot)).join(", ")}]`
}

interface Rendered {
  readonly text: string
  /** Per entry, per pair: the line its value starts on (the setting's first line is 1). */
  readonly lines: ReadonlyArray<ReadonlyArray<number>>
}

/** The setting `key=[ {…}, {…} ]`, one pair a line, starting at line 1. */
const renderList = (key: string, entries: ReadonlyArray<Entry>, godot: 3 | 4): Rendered => {
  let line = 1
  const lines: Array<Array<number>> = []
  const dicts = entries.map((e) => {
    const at: Array<number> = []
    const pairs = e.map(([k, v, stringName]) => {
      line += 1
      at.push(line)
      const text = `${godot === 4 && stringName ? "&" : ""}${JSON.stringify(k)}: ${render(v, godot)}`
      line += text.split("\n").length - 1
      return text
    })
    line += 1
    lines.push(at)
    return pairs.length === 0 ? "{}" : `{\n${pairs.join(",\n")}\n}`
  })
  const open = godot === 3 ? "[ " : "["
  const close = godot === 3 ? " ]" : "]"
  return { text: `${key}=${open}${dicts.join(", ")}${close}\n`, lines }
}

interface Model {
  /** name → [path, base, line of the path] the engine registers. */
  readonly classes: ReadonlyMap<string, { readonly path: string; readonly base: string; readonly line: number }>
  /** Names registered by more than one complete entry, the entries differing. */
  readonly duplicates: ReadonlySet<string>
}

/** ScriptServer::init_languages over the entries, written independently of the scanner. */
const engineModel = (entries: ReadonlyArray<Entry>, lines: ReadonlyArray<ReadonlyArray<number>>): Model => {
  const classes = new Map<string, { path: string; base: string; line: number }>()
  const seen = new Map<string, Set<string>>()
  entries.forEach((e, i) => {
    const last = new Map<string, { value: SettingValue; line: number }>()
    e.forEach(([key, value], j) => last.set(key, { value, line: lines[i]?.[j] ?? 0 }))
    const get = (key: string): string | null => {
      const v = last.get(key)?.value
      return typeof v === "string" ? v : null
    }
    const [name, base, language, path] = REQUIRED.map(get)
    if (name == null || base == null || language == null || path == null) return
    classes.set(name, { path, base, line: last.get("path")?.line ?? 0 })
    seen.set(name, (seen.get(name) ?? new Set()).add(`${base}|${path}`))
  })
  return { classes, duplicates: new Set([...seen].filter(([, variants]) => variants.size > 1).map(([name]) => name)) }
}

const nativeBase = (name: string, classes: Model["classes"]): string => {
  let base = classes.get(name)?.base ?? ""
  while (classes.has(base)) base = classes.get(base)?.base ?? ""
  return base
}

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))

/** A script naming `named` classes, one a line from line 4. */
const userScript = (named: ReadonlyArray<string>): string => `extends Node\n\nfunc _ready():\n${named.map((n) => `\tprint(${n}.new())\n`).join("")}\tpass\n`

const packOf = (form: Form, entries: ReadonlyArray<Entry>, list: Rendered, named: ReadonlyArray<string>): Uint8Array => {
  const godot4 = form === "godot4-cache"
  const scene = godot4
    ? '[gd_scene load_steps=2 format=3]\n\n[ext_resource type="Script" path="res://game/main.gd" id="1_m"]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource("1_m")\n'
    : '[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n'
  const settings =
    form === "godot3-text"
      ? { path: "res://project.godot", data: utf8(`${list.text}\n[application]\n\nconfig/name="G"\nrun/main_scene="res://game/main.tscn"\n`) }
      : { path: "res://project.binary", data: writeProjectBinary([["application/run/main_scene", "res://game/main.tscn"]]) }
  return writePack({
    format: godot4 ? 2 : 1,
    entries: [
      { path: "res://manifest.json", data: MANIFEST },
      form === "godot3-binary" ? { path: "res://project.binary", data: binaryOf(entries) } : settings,
      ...(godot4 ? [{ path: "res://.godot/global_script_class_cache.cfg", data: utf8(list.text) }] : []),
      { path: "res://game/main.tscn", data: utf8(scene) },
      { path: "res://game/main.gd", data: utf8("extends EngineGame\n") },
      ...IN_PACK.map((path) => ({ path, data: utf8("extends Reference\n") })),
      { path: "res://game/user.gd", data: utf8(userScript(named)) },
    ],
  })
}

/** The Godot 3 entries as project.binary holds them (the scanner decodes it to the text renderList writes). */
const binaryOf = (entries: ReadonlyArray<Entry>): Uint8Array =>
  writeProjectBinaryVariants([
    ["_global_script_classes", variant3(entries.map((e) => ({ dict: e.map(([k, v]) => [k, v] as const) })))],
    ["application/config/name", variant3("G")],
    ["application/run/main_scene", variant3("res://game/main.tscn")],
  ])

describe("global class registrations as ScriptServer::init_languages reads them", () => {
  it("the scanner judges the script the engine registers, in any key order, beside any other keys, the last entry of a name winning", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 5 }), fc.subarray<string>([...NAMES]), fc.constantFrom<Form>("godot3-text", "godot3-binary", "godot4-cache"), async (entries, named, form) => {
        const godot = form === "godot4-cache" ? 4 : 3
        const key = godot === 4 ? "list" : "_global_script_classes"
        const list = renderList(key, entries, godot)
        const model = engineModel(entries, list.lines)
        // The reader alone: the same classes and paths.
        const read = engineClasses(readClassEntries(list.text.slice(key.length + 1), 1, godot))
        expect(new Map([...read].map(([name, e]) => [name, e.path]))).toEqual(new Map([...model.classes].map(([name, c]) => [name, c.path])))
        // The whole scan: settings findings at the lines of the text the review pages show.
        const offset = form === "godot3-binary" ? 2 : 0
        const settingsFile = form === "godot4-cache" ? "res://.godot/global_script_class_cache.cfg" : form === "godot3-text" ? "res://project.godot" : "res://project.binary"
        const expected = new Set<string>()
        entries.forEach((e, i) =>
          e.forEach(([k, v], j) => {
            if (k === "path" && v === OUTSIDE) expected.add(`${settingsFile}:${(list.lines[i]?.[j] ?? 0) + offset}`)
          }),
        )
        for (const [name, c] of model.classes) {
          const missing = (MISSING as ReadonlyArray<string>).includes(c.path)
          const atStart = ["ResourceFormatLoader", "ResourceFormatSaver"].includes(nativeBase(name, model.classes))
          if (missing && (named.includes(name) || atStart)) expected.add(`${settingsFile}:${c.line + offset}`)
          if (missing && named.includes(name)) expected.add(`res://game/user.gd:${4 + named.indexOf(name)}`)
          if (model.duplicates.has(name)) expected.add(`${settingsFile}:${c.line + offset}`)
        }
        const report = await scanBytes(packOf(form, entries, list, named))
        const errors = report.findings.filter((f) => f.severity === "error" && f.file !== "res://game/main.gd" && f.file !== "res://game/main.tscn").map((f) => `${f.file}:${f.line ?? ""}`)
        expect(new Set(errors)).toEqual(expected)
      }),
      { numRuns: 150 },
    )
  })

  it("entries the model above does not make: a value that is not text, a class that is its own base, a cycle, Godot 4's typed list and StringName keys", () => {
    const paths = (text: string, grammar: 3 | 4) => Object.fromEntries([...engineClasses(readClassEntries(text, 1, grammar))].map(([name, e]) => [name, e.path]))
    // add_global_class refuses `p_class == p_base` and a base whose chain ends at the class (core/script_language.cpp:209).
    expect(paths('[ { "class": "A", "base": "A", "language": "GDScript", "path": "res://a.gd" }, { "class": "B", "base": "C", "language": "GDScript", "path": "res://b.gd" }, { "class": "C", "base": "B", "language": "GDScript", "path": "res://c.gd" } ]', 3)).toEqual({ B: "res://b.gd" })
    // Godot 4 compares String and StringName keys as one (StringLikeVariantComparator): the later value wins.
    expect(paths('Array[Dictionary]([{ &"class": &"A", "base": &"Node", "language": &"GDScript", &"path": "res://a.gd", "path": "res://z.gd" }])', 4)).toEqual({ A: "res://z.gd" })
    // An entry lacking language is not registered (ScriptServer::init_languages skips it); its path outside the pack is still an error.
    expect(paths('[ { "class": "A", "base": "Node", "path": "user://a.gd" } ]', 3)).toEqual({})
    const findings = (text: string) => projectSettingsFindings(text, "res://project.godot", "res://project.godot").map((f) => `${f.line} ${f.pattern}`)
    expect(findings(lines("_global_script_classes=[ {", '"base": "Node",', '"class": "A",', '"path": "user://a.gd"', "} ]"))).toEqual(["4 project setting _global_script_classes"])
    // A path the engine converts from a number: the scanner cannot tell what it loads.
    expect(findings(lines("_global_script_classes=[ {", '"base": "Node",', '"class": "A",', '"language": "GDScript",', '"path": 5', "} ]"))).toEqual(["5 project setting _global_script_classes"])
  })
})
