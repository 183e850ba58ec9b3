// A sixteenth red team (d): a member read that the engine routes through the member's getter gives what the getter
// returns (gdscript/memberGetter.ts), and run-time data written by a name the analysis does not pin down reaches the
// member (memberWrites.ts runTimeValue). attackProjects42.ts runs the Godot 3 shapes in godot3-server; Godot 4's
// are checked here on the analysis alone (no Godot 4 engine on this machine).
import { describe, expect, it } from "vitest"
import { hits3, hitsIn } from "./support/analyze.ts"

const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.includes(" error ")).map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)
const source = (...l: ReadonlyArray<string>): string => `${l.join("\n")}\n`

const ACTION3 = ['var action = "get_name" setget ,get_action', "func get_action():", '\treturn "exe" + "cute"']

describe("Godot 3: a property read runs the member's getter (red team 16d)", () => {
  it.each([
    ["self.x", '\tOS.call(self.action, "touch", [])'],
    ["another object of the class", '\tOS.call(preload("res://holder.gd").new().action, "touch", [])'],
  ])("%s: the getter's \"execute\" is the method called on OS", (_name, call) => {
    const holder = source("extends Node", ...ACTION3)
    expect(errors(hits3(source("extends Node", ...ACTION3, "func _ready():", call), { "res://holder.gd": holder }))).toEqual(["6 os-process"])
  })

  it("a getter giving a path from the environment: the write through self.x is the run-time-data error", () => {
    const found = hits3(source("extends Node", 'var save_path = "user://a.sav" setget ,get_path', "func get_path():", '\treturn OS.get_environment("HOME") + "/.bashrc"', "func _ready():", "\tvar f = File.new()", "\tf.open(self.save_path, File.WRITE)"))
    expect(errors(found)).toEqual(["7 filesystem-outside-sandbox"])
  })

  it("a bare name inside the class reads the member itself (gdscript_compiler.cpp compiles it to the member's slot), no error", () => {
    expect(errors(hits3(source("extends Node", ...ACTION3, "func _ready():", '\tOS.call(action, "touch", [])')))).toEqual([])
  })

  it("ordinary getters (a clamped number, a constant save path) stay clean", () => {
    const found = hits3(
      source("extends Node", "var hp = 10 setget set_hp, get_hp", 'var save_path = "user://a.sav" setget ,get_path', "func set_hp(v):", "\thp = clamp(v, 0, 100)", "func get_hp():", "\treturn int(clamp(hp, 0, 100))", "func get_path():", '\treturn "user://slot_1.sav"', "func _ready():", "\tvar f = File.new()", "\tf.open(self.save_path, File.WRITE)", "\tf.store_string(str(self.hp))"),
    )
    expect(errors(found)).toEqual([])
  })
})

describe("Godot 4: a bare read runs the getter too, but inside the getter (gdscript_compiler.cpp \"Perform getter\")", () => {
  it.each([
    ["a `get:` body", ['var action := "get_name":', "\tget:", '\t\treturn "exe" + "cute"']],
    ["`get = f`", ['var action = "get_name": get = _get_action', "func _get_action():", '\treturn "exe" + "cute"']],
    ["a static variable's `get:` body", ['static var action = "get_name":', "\tget:", '\t\treturn "exe" + "cute"']],
  ])("%s: the bare read is the getter's \"execute\"", (_name, decl) => {
    const found = hitsIn(source("extends Node", ...decl, "func _ready():", '\tOS.call(action, "touch", [])', '\tOS.call(self.action, "touch", [])'))
    const line = decl.length + 3
    expect(errors(found)).toEqual([`${line} os-process`, `${line + 1} os-process`])
  })

  it("inside the getter a bare read is the member itself: a getter returning its \"execute\" is still an error", () => {
    // A member read through a function is not closed to its constants (dynamic-dispatch rather than os-process).
    expect(errors(hitsIn(source("extends Node", 'var action := "exe" + "cute":', "\tget:", "\t\treturn action", "func _ready():", '\tOS.call(action, "touch", [])')))).toEqual(["6 dynamic-dispatch"])
  })

  it("outside the getter a bare read is only what the getter returns: a getter giving a harmless name, no error", () => {
    expect(errors(hitsIn(source("extends Node", 'var action := "exe" + "cute":', "\tget:", '\t\treturn "get_name"', "func _ready():", '\tOS.call(action, "touch", [])')))).toEqual([])
  })
})

describe("run-time data written by a name the analysis does not pin down reaches the member (red team 16d)", () => {
  const write = (...body: ReadonlyArray<string>): ReadonlyArray<string> => errors(hits3(source("extends Node", 'var save_path = "user://save.dat"', "func _ready():", ...body, "\tvar f = File.new()", "\tf.open(save_path, File.WRITE)")))
  it.each([
    ["callv of set", ['\tcallv("set", ["save_path", OS.get_environment("HOME")])']],
    ["set by the names of get_property_list()", ["\tfor p in get_property_list():", '\t\tif p.name.ends_with("_path"):', '\t\t\tset(p.name, OS.get_environment("HOME"))']],
    ["call of set_deferred", ['\tcall("set_deferred", "save_path", OS.get_environment("HOME"))']],
  ])("%s: the write is the run-time-data error", (_name, body) => {
    expect(write(...body)).toEqual([`${body.length + 5} filesystem-outside-sandbox`])
  })

  it("a constant written by such a name is no run-time data: no error", () => {
    expect(write("\tfor p in get_property_list():", '\t\tif p.name.ends_with("_path"):', '\t\t\tset(p.name, "user://other.dat")')).toEqual([])
  })
})
