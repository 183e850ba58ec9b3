// The analysis side of what a fourteenth red team got past the scanner (attackProjects32.ts holds the packs
// godot3-server ran): a pack script attached to an engine singleton or engine object runs with self being that
// object. Attaching one to a dangerous object is an escape, by every spelling and channel, in both grammars; a
// method self's engine base lacks, called on self or on a value that may be self, is judged as on an object of
// unknown class.
import { describe, expect, it } from "vitest"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { dispatchIndex } from "../../adapters/scanner/gdscript/engineDispatch.ts"
import { engineClassHas, engineTableKnows, ruleNamedMethods } from "../../adapters/scanner/gdscript/engineMethods.ts"
import { indexPolicy } from "../../adapters/scanner/gdscript/PolicyIndex.ts"
import { propertySegments } from "../../adapters/scanner/gdscript/propertyPaths.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { hitsIn, modelOf, packOf } from "./support/analyze.ts"

/** `line policy` of every error. */
const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.split(" ")[1] === "error").map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)
const LIB = { "res://lib/ai.gd": "extends Object\nfunc _init():\n\tpass\n" }
/** A script whose line 4 is `statement`. */
const attaching = (statement: string): string => ["extends Node", 'const S = preload("res://lib/ai.gd")', "func _ready():", `\t${statement}`, ""].join("\n")

describe("attaching a script to a dangerous engine object", () => {
  const both = [
    "OS.set_script(S)",
    "OS.script = S",
    'OS.set("script", S)',
    'OS.set_deferred("script", S)',
    'OS.set_indexed("script", S)',
    'OS.set_indexed(":script", S)',
    'OS.set_indexed("script:", S)',
    'OS.call("set_script", S)',
    'OS.callv("set_script", [S])',
    'OS.call_deferred("set_script", S)',
    'Engine.get_singleton("OS").set_script(S)',
    "ProjectSettings.set_script(S)",
    "ClassDB.set_script(S)",
    'ClassDB.class_set_property(OS, "script", S)',
    'UndoRedo.new().add_do_method(OS, "set_script", S)',
    'UndoRedo.new().add_do_property(OS, "script", S)',
    "instance_from_id(7).set_script(S)",
  ]
  const godot3 = ["Directory.new().set_script(S)", "File.new().script = S", 'funcref(OS, "set_script").call_func(S)', 'get_tree().connect("idle_frame", OS, "set_script", [S])', 'Thread.new().start(OS, "set_script", S)']
  const godot4 = ['DirAccess.open("user://").set_script(S)', "OS.set_script.call(S)", 'Callable(OS, "set_script").call(S)', "get_tree().process_frame.connect(OS.set_script.bind(S))"]

  it("is a dangerous-object-escape error where it is attached, by every spelling and channel", () => {
    for (const [grammar, statements] of [[3, [...both, ...godot3]], [4, [...both, ...godot4]]] as const) {
      for (const statement of statements) expect(errors(hitsIn(attaching(statement), LIB, grammar)), `${grammar} ${statement}`).toContain("4 dangerous-object-escape")
    }
  })

  it("names the object in the finding", () => {
    expect(hitsIn(attaching("ProjectSettings.set_script(S)"), LIB, 3)).toContain("4:2 error dangerous-object-escape ProjectSettings")
    expect(hitsIn(attaching("Directory.new().set_script(S)"), LIB, 3)).toContain("4:2 error dangerous-object-escape Directory")
  })

  it("a game's own nodes and objects stay clean", () => {
    const own3 = ["$Enemy.set_script(S)", 'get_node("Enemy").set("script", S)', "Reference.new().set_script(S)", "ConfigFile.new().script = S", "set_script(S)", "self.script = S", 'Node2D.new().call("set_script", S)']
    const own4 = ["$Enemy.set_script(S)", 'get_node("Enemy").set("script", S)', "RefCounted.new().set_script(S)", "Node2D.new().set_script.call(S)", "set_script(S)"]
    for (const [grammar, statements] of [[3, own3], [4, own4]] as const) {
      for (const statement of statements) expect(errors(hitsIn(attaching(statement), LIB, grammar)), `${grammar} ${statement}`).toEqual([])
    }
  })
})

describe("a method self's engine base lacks, on self or a value that may be self", () => {
  /** A script extending `base` whose line 4 is `statement`. */
  const payload = (base: string, statement: string): string => [`extends ${base}`, "func _init():", "\tvar me = self", `\t${statement}`, ""].join("\n")
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    ["Object", 'me.execute("touch", ["/tmp/m"])', "4 os-process"],
    ["Object", 'self.execute("touch", ["/tmp/m"])', "4 os-process"],
    ["Object", 'execute("touch", ["/tmp/m"])', "4 os-process"],
    ["Object", 'call("execute", "touch", ["/tmp/m"])', "4 os-process"],
    ["Object", '[self][0].shell_open("file:///etc")', "4 os-shell"],
    ["Object", 'me.save_custom("/tmp/p.godot")', "4 project-settings-save"],
    ["Object", 'me.load_resource_pack("user://x.pck")', "4 load-resource-pack"],
    ["Object", 'me.get_singleton("OS").execute("touch", [])', "4 os-process"],
    ["Resource", 'me.save("/tmp/c.cfg")', "4 filesystem-outside-sandbox"],
  ]

  it("is judged as on a receiver of unknown class, in both grammars", () => {
    for (const grammar of [3, 4] as const) {
      for (const [base, statement, expected] of [...cases, ["Reference", 'me.make_dir("/tmp/d")', "4 filesystem-outside-sandbox"] as const]) {
        const b = grammar === 4 && base === "Reference" ? "RefCounted" : base
        expect(errors(hitsIn(payload(b, statement), {}, grammar)), `${grammar} ${b} ${statement}`).toContain(expected)
      }
      // A node may be a 3.x BakedLightmap, whose bake() saves where it is told.
      if (grammar === 3) expect(errors(hitsIn(payload("Node", 'me.bake(null, "/tmp/x.lmbake")'), {}, grammar))).toContain("4 filesystem-outside-sandbox")
      // No extends: the engine makes the class a Reference (4.x RefCounted).
      expect(errors(hitsIn(["func _init():", "\tvar me = self", '\tme.make_dir("/tmp/d")', ""].join("\n"), {}, grammar)), `${grammar} no extends`).toContain("3 filesystem-outside-sandbox")
    }
  })

  it("says why in the note", () => {
    const scripts = packOf({ "res://main.gd": payload("Object", 'me.execute("touch", ["/tmp/m"])') }, 3)
    const [script] = scripts
    if (script === undefined) throw new Error("no script")
    const hit = analyzeScript(script, modelOf(scripts, 3), defaultPolicy).hits.find((h) => h.entry.id === "os-process")
    expect(hit?.matched).toBe("me.execute(…)")
    expect(hit?.note).toContain("may be any engine object whose class is Object or extends it")
  })

  it("the base's own methods, the class's own and a subclass's stay as before", () => {
    const clean: ReadonlyArray<readonly [3 | 4, string, string]> = [
      [3, "Camera", "me.set_environment(Environment.new())"],
      [3, "Camera", "set_environment(Environment.new())"],
      [4, "Camera3D", "me.set_environment(Environment.new())"],
      [3, "ConfigFile", 'me.save("user://settings.cfg")'],
      [4, "ConfigFile", 'me.save("user://settings.cfg")'],
      [3, "Tween", 'me.interpolate_property(me, "position", Vector2.ZERO, Vector2.ONE, 1.0)'],
      [3, "Tween", "me.start()"],
      [3, "Node2D", 'me.add_to_group("enemies")'],
      [4, "Node2D", "me.rotate(0.5)"],
      [3, "Reference", "me.execute()\nfunc execute():\n\tpass"],
      // No engine class below Node has these: self cannot be one that does.
      [3, "Node", 'me.make_dir("/tmp/d")'],
      [4, "Node", 'me.execute("touch", ["/tmp/m"])'],
    ]
    for (const [grammar, base, statement] of clean) expect(errors(hitsIn(payload(base, statement), {}, grammar)), `${grammar} ${base} ${statement}`).toEqual([])
    // A base class running what only its subclass defines: the pack has an execute(), so a warning for the reviewer.
    const command = "extends Reference\nfunc run():\n\tvar me = self\n\treturn me.execute()\n"
    const found = hitsIn(command, { "res://jump.gd": 'extends "res://main.gd"\nfunc execute():\n\treturn 1\n' }, 3)
    expect(errors(found)).toEqual([])
    expect(found).toContain("4:9 warning os-process me.execute(…)")
  })
})

describe("property paths as the engine reads them", () => {
  it("follow NodePath and get_as_property_path", () => {
    expect(propertySegments("script")).toEqual(["script"])
    expect(propertySegments(":script")).toEqual(["script"])
    expect(propertySegments("script:")).toEqual(["script"])
    expect(propertySegments("s:source_code")).toEqual(["s", "source_code"])
    expect(propertySegments("s:source_code:")).toEqual(["s", "source_code"])
    expect(propertySegments("a//b:c")).toEqual(["a/b", "c"])
    expect(propertySegments("a::b")).toEqual([])
    expect(propertySegments("")).toEqual([])
  })
})

describe("engine-methods.json", () => {
  it("lists every method a rule of the default policy names, for both grammars (else regenerate it: test/scanner/support/generateEngineMethods.ts)", () => {
    const idx = indexPolicy(defaultPolicy)
    for (const grammar of [3, 4] as const) {
      const missing = [...ruleNamedMethods(idx, dispatchIndex(grammar, defaultPolicy), grammar)].filter((m) => !engineTableKnows(grammar, m))
      expect(missing, `Godot ${grammar}`).toEqual([])
    }
  })

  it("holds the classes that declare or inherit each one, from the class reference", () => {
    expect(engineClassHas(3, "Camera", "set_environment")).toBe(true)
    expect(engineClassHas(3, "ClippedCamera", "set_environment")).toBe(true)
    expect(engineClassHas(4, "Camera3D", "set_environment")).toBe(true)
    expect(engineClassHas(3, "ConfigFile", "save")).toBe(true)
    expect(engineClassHas(3, "OS", "execute")).toBe(true)
    expect(engineClassHas(3, "Object", "execute")).toBe(false)
    expect(engineClassHas(3, "Reference", "make_dir")).toBe(false)
    expect(engineClassHas(4, "RefCounted", "make_dir")).toBe(false)
  })
})
