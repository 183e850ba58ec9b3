// Members closed by their writers (memberWrites.ts): a component's exported property name is judged as the
// constants its default, the pack's scenes and the pack's scripts give it; one dangerous constant, or one
// writer out of sight, makes it the error a name that is not constant is. No engine: the pack's scripts as
// text, the scenes' values as PackModelOptions.dataProperties (their reading is in textResource.test.ts).
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { engineNames } from "../../adapters/scanner/gdscript/engineClasses.ts"
import { indexPolicy } from "../../adapters/scanner/gdscript/PolicyIndex.ts"
import { PackModel } from "../../adapters/scanner/gdscript/packModel.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { TextResourceReader } from "../../adapters/scanner/resource/textResource.ts"
import { packOf } from "./support/analyze.ts"

const PULSE = [
  "extends Node",
  'export var property := "scale"',
  "export(NodePath) var target_path",
  'export var on_done := "queue_free"',
  "onready var tween = Tween.new()",
  "func _ready():",
  "\tadd_child(tween)",
  "\tvar target = get_node(target_path)",
  "\ttween.interpolate_property(target, property, Vector2(1, 1), Vector2(2, 2), 0.5)",
  '\ttween.connect("tween_all_completed", self, on_done)',
  "\tcall(on_done)",
  "",
].join("\n")

/** A write of the member from somewhere in the pack: a script line, or a value a scene sets (`scene`). */
type Source = { readonly line: string } | { readonly scene: string | null } | { readonly track: string }

/** The errors of res://pulse.gd (`line rule`) with the other sources in the pack. */
const errorsOfPulse = (sources: ReadonlyArray<Source>): ReadonlyArray<string> => {
  const lines = sources.flatMap((s) => ("line" in s ? [`\t${s.line}`] : []))
  const scripts = packOf(
    {
      "res://pulse.gd": PULSE,
      "res://game.gd": ["extends Node", "func _ready():", '\tvar p = preload("res://pulse.gd").new()', "\tadd_child(p)", ...lines, "\tpass", ""].join("\n"),
      "res://big_pulse.gd": ['extends "res://pulse.gd"', "func grow():", '\tproperty = "scale"', ""].join("\n"),
    },
    3,
  )
  const scene = sources.flatMap((s) => ("scene" in s ? [{ script: "res://pulse.gd", value: s.scene }] : []))
  const written = new Set(sources.flatMap((s) => ("track" in s ? s.track.split(/[:/]/) : [])))
  const model = new PackModel(scripts, new Map(), engineNames(3, indexPolicy(defaultPolicy)), { dataProperties: { values: new Map([["property", scene]]), written } })
  const pulse = scripts[0]
  if (pulse === undefined) return []
  return analyzeScript(pulse, model, defaultPolicy)
    .hits.filter((h) => h.severity === "error")
    .map((h) => `${h.line} ${h.entry.id}`)
}

const SAFE = ["scale", "modulate", "rotation", "position:x", "self_modulate", "rotation_degrees"] as const
const safeValue = fc.constantFrom(...SAFE)
/** Ways the pack gives the member a constant. */
const safeSource: fc.Arbitrary<Source> = fc.oneof(
  safeValue.map((v) => ({ scene: v })),
  safeValue.map((v) => ({ line: `p.property = "${v}"` })),
  safeValue.map((v) => ({ line: `p.set("property", "${v}")` })),
  safeValue.map((v) => ({ line: `$Pulse.set_deferred("property", "${v}")` })),
  safeValue.map((v) => ({ line: `get_node("Pulse").property = "${v}"` })),
  safeValue.map((v) => ({ line: `p.on_done = "${v === "scale" ? "hide" : "queue_free"}"` })),
  fc.constant({ line: 'p.call_deferred("set", "visible", false)' }),
  fc.constant({ track: "Sprite:position" }),
)
/** One source that makes it an error: a dangerous constant, or a writer out of sight. */
const badSource: fc.Arbitrary<Source> = fc.oneof(
  fc.constantFrom("s:source_code", "script:source_code", "allow_object_decoding", "source_code").chain((v) => fc.constantFrom<Source>({ scene: v }, { line: `p.property = "${v}"` }, { line: `p.set("property", "${v}")` })),
  fc.constantFrom<Source>(
    { scene: null },
    { track: "Pulse:property" },
    { line: "p.property = get_name()" },
    { line: "p.set(get_name(), get_name())" },
    { line: 'p.set_indexed("property:0", "x")' },
    { line: 'p.set_indexed(":property", "s:source_code")' },
    { line: 'p.set_indexed(":" + get_name(), "x")' },
    { line: "p.property += get_name()" },
    { line: 'get_tree().call_group("fx", "set", "property", get_name())' },
    { line: 'p.connect("ready", p, "set")' },
    { line: 'p.callv(get_name(), ["property", "x"])' },
    { line: 'p.on_done = "set"' },
    { line: "print(dict2inst({}))" },
  ),
)

describe("a component's exported property name, closed by its writers", () => {
  it("any mix of constant, harmless values from scenes and scripts stays clean", () => {
    fc.assert(fc.property(fc.array(safeSource, { maxLength: 6 }), (sources) => {
        expect(errorsOfPulse(sources)).toEqual([])
      }), { numRuns: 60 })
  })

  it("one dangerous constant or one writer out of sight among them makes the component's tween an error", () => {
    fc.assert(
      fc.property(fc.array(safeSource, { maxLength: 4 }), badSource, fc.nat(4), (safe, bad, at) => {
        const sources = [...safe.slice(0, at), bad, ...safe.slice(at)]
        expect(errorsOfPulse(sources).filter((e) => e.startsWith("9 ") || e.startsWith("10 ") || e.startsWith("11 "))).not.toEqual([])
      }),
      { numRuns: 80 },
    )
  })

  it("a name held in another member that may be the component's own name opens it", () => {
    expect(errorsOfPulse([{ line: 'p.on_done = "set"' }])).toContain("9 script-source-code")
    expect(errorsOfPulse([{ line: 'p.property = "on_done"' }])).toContain("10 dynamic-dispatch")
  })
})

describe("what scenes and resources set on objects that may have a script of the pack", () => {
  it("text sections with a script, instanced and inherited nodes and Object values with a script are kept; engine objects are not", () => {
    const reader = new TextResourceReader(3)
    reader.feed(
      [
        "[gd_scene load_steps=3 format=2]",
        '[ext_resource path="res://pulse.gd" type="Script" id=1]',
        '[ext_resource path="res://coin.tscn" type="PackedScene" id=2]',
        '[node name="Root" type="Node2D"]',
        'property = "not a member of an engine node"',
        '[node name="Pulse" type="Node" parent="."]',
        'property = "modulate"',
        "script = ExtResource( 1 )",
        "amount = 2.0",
        '[node name="Coin" parent="." instance=ExtResource( 2 )]',
        'property = NodePath("rotation")',
        '[node name="Old" parent="Coin"]',
        "metadata/x = 1",
        'on_done = "hide"',
        '[node name="Data" type="Node" parent="."]',
        'editor_description = Object(Node, "script": ExtResource( 1 ), "property": "scale")',
      ].join("\n"),
    )
    const facts = reader.finish()
    expect(facts.memberValues).toEqual([
      { property: "property", value: "modulate", script: { _tag: "File", path: "res://pulse.gd" } },
      { property: "amount", value: null, script: { _tag: "File", path: "res://pulse.gd" } },
      { property: "property", value: "rotation", script: null },
      { property: "on_done", value: "hide", script: null },
      { property: "property", value: "scale", script: null },
    ])
  })
})
