// A hundred-and-twenty-second red team's (attackProjects143.ts, run by godot3-server): a script extending Object
// attached to the SceneTree (`get_tree().set_script(…)`) runs with self being the tree, whose `change_scene` its
// `call(n, a)` reached by a name out of sight, loading a scene the game wrote to user://. Attaching a script to an
// engine object with a method a rule judges by name, in a pack that dispatches on self by a name out of sight, is the
// dangerous-object-escape error; your own nodes stay clean.
import { describe, expect, it } from "vitest"
import { hasRuledMethod } from "../../adapters/scanner/gdscript/engineMethods.ts"
import { dispatchIndex } from "../../adapters/scanner/gdscript/engineDispatch.ts"
import { indexPolicy } from "../../adapters/scanner/gdscript/PolicyIndex.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { hits3 } from "./support/analyze.ts"

const R = { "res://r.gd": "extends Object\nfunc go(n, a):\n\treturn call(n, a)\n" }
const attach = (recv: string): string => ["extends Node", "func _ready():", `\tvar t = ${recv}`, '\tt.set_script(load("res://r.gd"))', '\tt.go("change_scene", "user://s.tscn")', ""].join("\n")

describe("a script attached to an engine object", () => {
  it("is an error on the SceneTree, whose change_scene a call on self by name may reach", () => {
    expect(hits3(attach("get_tree()"), R).filter((h) => h.includes(" error "))).toEqual(["4:2 error dangerous-object-escape SceneTree"])
  })

  // A hundred-and-twenty-third red team's: the main loop Engine hands out is the same SceneTree.
  it("is an error on the main loop, however it is reached or typed", () => {
    for (const recv of ["Engine.get_main_loop()", 'Engine.call("get_main_loop")']) expect(hits3(attach(recv), R).filter((h) => h.includes(" error "))).toEqual(["4:2 error dangerous-object-escape SceneTree"])
    const typed = attach("get_tree()").replace("var t = get_tree()", "var t: MainLoop = get_tree()")
    expect(hits3(typed, R).filter((h) => h.includes(" error "))).toEqual(["4:2 error dangerous-object-escape MainLoop"])
  })

  // A hundred-and-twenty-fourth red team's: the tree lost in an element, a parameter or metadata is still the tree.
  it("is an error on an object the analysis lost, given a script the tree can run", () => {
    const lost = (lines: ReadonlyArray<string>, script = "res://r.gd"): ReadonlyArray<string> =>
      hits3(["extends Node", `const S = preload("${script}")`, ...lines, ""].join("\n"), { ...R, "res://n.gd": "extends Node\nfunc go(n, a):\n\treturn call(n, a)\n" }).filter((h) => h.includes(" error "))
    expect(lost(["func _ready():", "\tvar t = [get_tree()]", "\tt[0].set_script(S)"])).toEqual(["5:2 error dangerous-object-escape SceneTree"])
    expect(lost(["func _ready():", "\tgive(get_tree())", "func give(o):", "\to.set_script(S)"])).toEqual(["6:2 error dangerous-object-escape SceneTree"])
    expect(lost(["func _ready():", '\tset_meta("t", get_tree())', '\tget_meta("t").script = S'])).toEqual(["5:2 error dangerous-object-escape SceneTree"])
    // A script extending Node runs on no tree: the engine refuses it there.
    expect(lost(["func _ready():", "\tvar t = [get_tree()]", "\tt[0].set_script(S)"], "res://n.gd")).toEqual([])
  })

  it("judges a call on self by a name out of sight in a class extending SceneTree as reaching change_scene", () => {
    const tree = ["extends SceneTree", 'var steps = ["change", "scene"]', "func _idle(d):", '\tvar n = PoolStringArray(steps).join("_")', "\tsteps.append(1)", '\tcall(n, "user://s.tscn")', ""].join("\n")
    expect(hits3(tree).filter((h) => h.includes(" error "))).toEqual(['6:10 error runtime-code-loading SceneTree.change_scene("user://s.tscn")'])
    expect(hits3(tree.replace("extends SceneTree", "extends Node")).filter((h) => h.includes(" error "))).toEqual([])
  })

  it("is no finding where no class of the pack dispatches on self by a name out of sight", () => {
    const plain = { "res://r.gd": "extends Object\nfunc go(n, a):\n\treturn n\n" }
    expect(hits3(attach("get_tree()"), plain).filter((h) => h.includes(" error "))).toEqual([])
  })

  it("is no finding on your own nodes and objects", () => {
    expect(hits3(attach("$Enemy"), R)).toEqual([])
    expect(hits3(attach("Node2D.new()"), R)).toEqual([])
    expect(hits3(attach("Reference.new()"), R)).toEqual([])
  })

  it("reads which classes have such methods from the engine tables", () => {
    const idx = indexPolicy(defaultPolicy)
    const dispatch = dispatchIndex(3, defaultPolicy)
    expect([hasRuledMethod(idx, dispatch, 3, "SceneTree"), hasRuledMethod(idx, dispatch, 3, "Node"), hasRuledMethod(idx, dispatch, 3, "Node2D")]).toEqual([true, false, false])
  })

  // A hundred-and-twenty-second red team's: ClassDB makes Godot 3's core wrappers by their binary names.
  it("made by ClassDB under a core wrapper's binary name is an object of that class", () => {
    const saver = ["extends Node", "func _ready():", '\tvar s = ClassDB.instance("_ResourceSaver")', '\ts.save("/tmp/x.tres", Resource.new())', ""].join("\n")
    expect(hits3(saver).filter((h) => h.includes(" error "))).toEqual(['4:2 error filesystem-outside-sandbox ResourceSaver.save("/tmp/x.tres")'])
    const thread = ["extends Node", "func _ready():", '\tvar t = ClassDB.instance("_Thread")', '\tt.start(Directory.new(), "make_dir", "/tmp/x")', ""].join("\n")
    expect(hits3(thread).filter((h) => h.includes(" error ")).length).toBeGreaterThan(0)
  })
})
