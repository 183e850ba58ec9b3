// What a tenth red team got past pckgate-scanner/12 (attackProjects21.ts holds the packs the engine ran): a
// closed member written through a property path that reaches it past its first segment (`"c:property"` on the
// holder of `c`, an animation track `Setter:property`), spelled every way the pack can hand the engine a path;
// a member without a default closed by its scenes' values; and file writes on a receiver of unknown class whose
// name a built-in type shares (3.x Array.remove). Pure analysis on source text.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { engineNames } from "../../adapters/scanner/gdscript/engineClasses.ts"
import { indexPolicy } from "../../adapters/scanner/gdscript/PolicyIndex.ts"
import type { DataProperties } from "../../adapters/scanner/gdscript/memberWrites.ts"
import { PackModel } from "../../adapters/scanner/gdscript/packModel.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { hitsIn, packOf } from "./support/analyze.ts"

/** The component: sets `property` (a property path) of its parent to `value`; line 6 is the write. */
const SETTER = ["extends Node", 'export var property := "modulate"', "export var value = Color(1, 1, 1)", "func apply():", "\tvar target = get_parent()", "\ttarget.set_indexed(property, value)", ""].join("\n")
const WRITE_LINE = 6

/** Errors of res://setter.gd (`line rule`) in a pack whose holder script runs `body` (its member `c` is the component), with `data` from scenes. */
const setterErrors = (body: ReadonlyArray<string>, data: Partial<DataProperties> = {}, others: Readonly<Record<string, string>> = {}): ReadonlyArray<string> => {
  const holder = ["extends Node", "var c", "var s", "func _ready():", '\tc = preload("res://setter.gd").new()', '\tc.name = "Setter"', "\tadd_child(c)", ...body.map((l) => `\t${l}`), "\tc.apply()", ""].join("\n")
  const scripts = packOf({ "res://setter.gd": SETTER, "res://holder.gd": holder, ...others }, 3)
  const dataProperties: DataProperties = { values: data.values ?? new Map(), written: data.written ?? new Set() }
  const model = new PackModel(scripts, new Map(), engineNames(3, indexPolicy(defaultPolicy)), { dataProperties })
  const setter = scripts[0]
  if (setter === undefined) return []
  return analyzeScript(setter, model, defaultPolicy)
    .hits.filter((h) => h.severity === "error")
    .map((h) => `${h.line} ${h.entry.id}`)
}

/** A constant path through other objects to `last`: node or member segments, then `last`, then maybe a sub-property. */
const pathTo = (last: string): fc.Arbitrary<string> =>
  fc
    .tuple(fc.array(fc.constantFrom("c", "Setter", "a/b", "holder", ""), { minLength: 1, maxLength: 3 }), fc.option(fc.constantFrom("x", "length"), { nil: undefined }))
    .map(([before, after]) => [...before, last, ...(after === undefined ? [] : [after])].join(":"))

/** GDScript expressions the engine gets the path `p` from: the literal, NodePath, folded pieces, a constant of another script. */
const spelled = (p: string): fc.Arbitrary<{ readonly expr: string; readonly others?: Readonly<Record<string, string>> }> => {
  const cut = Math.max(1, p.length - 3)
  return fc.constantFrom(
    { expr: JSON.stringify(p) },
    { expr: `NodePath(${JSON.stringify(p)})` },
    { expr: `${JSON.stringify(p.slice(0, cut))} + ${JSON.stringify(p.slice(cut))}` },
    { expr: `"%s%s" % [${JSON.stringify(p.slice(0, cut))}, ${JSON.stringify(p.slice(cut))}]` },
    { expr: "Paths.P", others: { "res://paths.gd": ["extends Reference", `const P = ${JSON.stringify(p.slice(0, cut))} + ${JSON.stringify(p.slice(cut))}`, ""].join("\n") } },
  )
}

/** Ways code hands the engine path expression `e` to write (lines of the holder's _ready; `Paths` is the constant's script). */
const WRITERS: ReadonlyArray<(e: string) => ReadonlyArray<string>> = [
  (e) => [`set_indexed(${e}, "s:source_code")`],
  (e) => [`self.set_indexed(${e}, "s:source_code")`],
  (e) => [`call("set_indexed", ${e}, "s:source_code")`],
  (e) => [`callv("set_indexed", [${e}, "s:source_code"])`],
  (e) => [`propagate_call("set_indexed", [${e}, "s:source_code"])`],
  (e) => ['add_to_group("g")', `get_tree().call_group("g", "set_indexed", ${e}, "s:source_code")`],
  (e) => ["var a = Animation.new()", "var t = a.add_track(Animation.TYPE_VALUE)", `a.track_set_path(t, ${e})`],
  (e) => ["var a = Animation.new()", "a.add_track(Animation.TYPE_VALUE)", `a.set("tracks/0/path", ${e})`],
  (e) => ["var a = Animation.new()", "a.add_track(Animation.TYPE_VALUE)", `a["tracks/0/path"] = ${e}`],
  (e) => ["var a = Animation.new()", `a.call("track_set_path", 0, ${e})`],
  (e) => ["var tw = Tween.new()", "add_child(tw)", `tw.interpolate_property(self, ${e}, null, "s:source_code", 1.0)`],
  (e) => [`create_tween().tween_property(self, ${e}, "s:source_code", 1.0)`],
]

describe("a closed member written through a property path past its first segment (property)", () => {
  it("any path reaching it, spelled and handed to the engine any way, makes the component's write an error", () => {
    fc.assert(
      fc.property(pathTo("property").chain(spelled), fc.constantFrom(...WRITERS), (spelling, writer) => {
        const body = [...(spelling.others === undefined ? [] : ['var Paths = preload("res://paths.gd")']), ...writer(spelling.expr)]
        expect(setterErrors(body, {}, spelling.others), body.join("\n")).toContain(`${WRITE_LINE} script-source-code`)
      }),
      { numRuns: 250 },
    )
  })

  it("paths that stop short of it, or reach another member, leave it closed", () => {
    fc.assert(
      fc.property(fc.oneof(pathTo("modulate"), pathTo("scale")), fc.constantFrom(...WRITERS), (p, writer) => {
        const body = writer(JSON.stringify(p))
        expect(setterErrors(body), body.join("\n")).toEqual([])
      }),
      { numRuns: 120 },
    )
  })

  it("a path the analysis cannot pin down, out of sight or in the pack's data opens it", () => {
    const label = ["var l = Label.new()", 'l.text = "c:property"']
    expect(setterErrors([...label, "set_indexed(l.text, 1)"])).toContain(`${WRITE_LINE} script-source-code`)
    expect(setterErrors([...label, "var a = Animation.new()", "a.track_set_path(0, l.text)"])).toContain(`${WRITE_LINE} script-source-code`)
    expect(setterErrors(["var a = Animation.new()", "a.track_set_path(0, get_name() + \":x\")"])).toContain(`${WRITE_LINE} script-source-code`)
    expect(setterErrors(['var f = funcref(self, "set_indexed")'])).toContain(`${WRITE_LINE} script-source-code`)
    expect(setterErrors(['connect("ready", self, "set_indexed", [get_name(), 1])'])).toContain(`${WRITE_LINE} script-source-code`)
    // Another component's member, given "c:property" by a scene, used as a path.
    const other = { "res://other.gd": ["extends Node", 'export var path := "modulate"', "func go():", "\tget_parent().set_indexed(path, 1)", ""].join("\n") }
    const sceneValue = new Map([["path", [{ script: "res://other.gd", value: "c:property" }]]])
    expect(setterErrors([], { values: sceneValue }, other)).toContain(`${WRITE_LINE} script-source-code`)
    // A constant path anywhere in the pack's code, and a track of the pack's data.
    expect(setterErrors(['var unused = "Setter:property"'])).toContain(`${WRITE_LINE} script-source-code`)
    expect(setterErrors([], { written: new Set(["Setter", "property"]) })).toContain(`${WRITE_LINE} script-source-code`)
    // The same shapes reaching nothing of it stay clean.
    expect(setterErrors([...label.slice(0, 1), 'l.text = "hello"', "set_indexed(\"c:modulate\", 1)"])).toEqual([])
  })
})

describe("a member without a default, closed by the constants its scenes give it", () => {
  const save = (typed: string): string => ["extends Node", `export var save_path${typed}`, "func _ready():", "\tvar c = ConfigFile.new()", "\tc.save(save_path)", "\tset_meta(\"c\", c)", "\tget_meta(\"c\").save(save_path)", ""].join("\n")
  const decoy = { "res://slots.gd": ["extends Node", "func save(slot):", "\tpass", ""].join("\n") }
  const run = (typed: string, values: ReadonlyArray<string | null>): ReadonlyArray<string> => {
    const scripts = packOf({ "res://saver.gd": save(typed), ...decoy }, 3)
    const dataProperties: DataProperties = { values: new Map([["save_path", values.map((value) => ({ script: "res://saver.gd", value }))]]), written: new Set() }
    const model = new PackModel(scripts, new Map(), engineNames(3, indexPolicy(defaultPolicy)), { dataProperties })
    const saver = scripts[0]
    return saver === undefined ? [] : analyzeScript(saver, model, defaultPolicy).hits.map((h) => `${h.line} ${h.severity} ${h.entry.id}`)
  }

  it("is judged as those values, typed or not: outside user:// an error on a ConfigFile and on a lost receiver beside a decoy", () => {
    for (const typed of [": String", "", ": NodePath"]) {
      expect(run(typed, ["/tmp/x.cfg"])).toEqual(["5 error filesystem-outside-sandbox", "7 error filesystem-outside-sandbox"])
      expect(run(typed, ["user://a.cfg", "/home/u/.bashrc"])).toEqual(["5 error filesystem-outside-sandbox", "7 error filesystem-outside-sandbox"])
      expect(run(typed, ["user://a.cfg", "user://b.cfg"])).toEqual([])
    }
  })

  it("a value out of sight leaves it open: a warning on the ConfigFile, and the documented warning on the lost receiver beside a decoy", () => {
    expect(run(": String", ["user://a.cfg", null])).toEqual(["5 warning filesystem-outside-sandbox", "7 warning filesystem-outside-sandbox"])
  })
})

describe("a file write on a receiver of unknown class whose name a built-in type shares (3.x Array.remove)", () => {
  const lost = (arg: string, grammar: 3 | 4 = 3): ReadonlyArray<string> =>
    hitsIn(["extends Node", "var player", "func _ready():", '\tvar f = File.new()', '\tf.open("user://d.json", File.READ)', "\tvar save = parse_json(f.get_as_text())", `\tplayer.items.remove(${arg})`, ""].join("\n"), {}, grammar).filter((h) => h.includes("filesystem-outside-sandbox"))

  it("an index read from JSON is a warning, not an error", () => {
    expect(lost('save["slot"]')).toEqual(["7:2 warning filesystem-outside-sandbox player.items.remove(…)"])
    expect(lost("0")).toEqual([])
  })

  it("text is no index: a path read at run time, built, or a constant outside stays an error", () => {
    for (const arg of ['OS.get_environment("HOME")', 'OS.get_environment("HOME") + "/.bashrc"', 'save["dir"] + "/x"', '"/etc/passwd"']) expect(lost(arg).map((h) => h.split(" ")[1])).toEqual(["error"])
  })

  it("a receiver the analysis knows is a Directory stays an error; Godot 4's arrays have no remove", () => {
    const known = ["extends Node", "func _ready():", '\tvar f = File.new()', '\tf.open("user://d.json", File.READ)', "\tvar save = parse_json(f.get_as_text())", "\tmatch Directory.new():", "\t\tvar d:", '\t\t\td.remove(save["slot"])', ""].join("\n")
    expect(hitsIn(known, {}, 3).filter((h) => h.includes("error filesystem-outside-sandbox"))).toHaveLength(1)
    expect(lost('save["slot"]', 4).map((h) => h.split(" ")[1])).toEqual(["error"])
  })
})
