// Godot 3.2.3 reads `res://project.godot` before the pack's project.binary, from the working folder where the pack has
// none: a game started in its user:// folder that writes `user://project.godot` picks its own autoloads at the next
// start (a ninety-sixth red team's, attackProjects138.ts). A write naming a project.godot is an error, and so is one
// whose whole file name is built at run time (it may be a project.godot, a `.remap` or an `.import`).
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const errorsOf = async (...body: ReadonlyArray<string>): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://a.gd": ["extends Node", "", ...body, ""].join("\n") })).filter((f) => f.split(" ")[1] === "error")

describe("writes the engine may read as its settings", () => {
  it.each([
    ["a constant user://project.godot", ['func _ready():', '\tvar f = File.new()', '\tf.open("user://project.godot", File.WRITE)']],
    ["a helper's name parameter", ['func _ready():', '\tstore("Project.godot")', "func store(name):", "\tvar f = File.new()", '\tf.open("user://" + name, File.WRITE)']],
    ["a name of any text, get_file()'d", ['func _ready():', '\tvar f = File.new()', '\tvar n = OS.get_environment("N")', '\tf.open("user://" + n.get_file(), File.WRITE)']],
    ["a ConfigFile saved under a name built at run time", ['func _ready():', '\tvar c = ConfigFile.new()', '\tvar n = OS.get_environment("N")', '\tc.save("user://" + n.get_file())']],
    // A ninety-eighth red team's: a constant end that does not rule those names out.
    ["an empty end in a local", ['func _ready():', '\tvar f = File.new()', '\tvar n = OS.get_environment("N")', '\tvar ext = ""', '\tf.open("user://" + n.get_file() + ext, File.WRITE)']],
    ["an end that may be empty", ['func _ready():', '\tvar f = File.new()', '\tvar n = OS.get_environment("N")', '\tf.open("user://" + n.get_file() + ("" if n.length() > 0 else ".save"), File.WRITE)']],
    ["%s then an empty end", ['func _ready():', '\tvar f = File.new()', '\tvar n = OS.get_environment("N")', '\tf.open("user://%s" % n.get_file() + "", File.WRITE)']],
    ["a .tres at user://'s root", ['func _ready():', '\tvar f = File.new()', '\tvar n = OS.get_environment("N")', '\tf.open("user://" + n.get_file().get_basename() + ".tres", File.WRITE)']],
    ["a .remap after a name not known", ["func store(path):", "\tvar f = File.new()", '\tf.open("user://" + path.get_file() + ".remap", File.WRITE)']],
    // A ninety-seventh red team's: the audio bus layout the engine loads by itself, by default res://default_bus_layout.tres.
    ["the default bus layout", ['func _ready():', '\tvar f = File.new()', '\tf.open("user://Default_Bus_Layout.tres", File.WRITE)']],
  ])("%s: an error", async (_, body) => {
    expect((await errorsOf(...body)).some((f) => f.endsWith("runtime-code-loading"))).toBe(true)
  })

  it.each([
    ["a local holding a name that may climb", ['\tvar path = "user://" + n', "\tf.open(path, File.WRITE)"]],
    ["%s of a name that may climb", ['\tf.open("user://%s.save" % n, File.WRITE)']],
    ["%s of a whole file name", ['\tf.open("user://%s" % n.get_file(), File.WRITE)']],
    ["a local holding a whole file name", ["\tvar name = n.get_file()", '\tf.open("user://" + name, File.WRITE)']],
  ])("%s: still an error", async (_, lines) => {
    expect(await errorsOf("func _ready():", "\tvar f = File.new()", '\tvar n = OS.get_environment("N")', ...lines)).not.toEqual([])
  })

  it("the engine's log written to a project.godot (a ninety-seventh red team's): an error at the setting", async () => {
    const settings = '[application]\n\nconfig/name="P"\n\n[logging]\n\nfile_logging/enable_file_logging=true\nfile_logging/log_path="user://project.godot"\n'
    expect((await scan3Files({ "res://project.godot": settings })).filter((f) => f.split(" ")[1] === "error")).toEqual(["res://project.godot:8 error project setting logging/file_logging/log_path"])
  })

  it("guard: a name built at run time with an extension of the game's own, a number, or an entry of a listing, is no error", async () => {
    expect(await errorsOf(
      "func _ready():",
      "\tvar f = File.new()",
      '\tvar n = OS.get_environment("N")',
      '\tf.open("user://" + n.get_file() + ".save", File.WRITE)',
      '\tf.open("user://replays/" + (n.get_file() + ".rep"), File.WRITE)',
      // A ninety-seventh hunt's save slots: the path or the name in a local, and `%s` formatting.
      '\tvar path = "user://saves/" + n.get_file() + ".save"',
      "\tf.open(path, File.WRITE)",
      '\tvar file_name = n.get_file() + ".save"',
      '\tf.open("user://saves/" + file_name, File.WRITE)',
      '\tf.open("user://saves/%s.save" % n.get_file(), File.WRITE)',
      '\tf.open("user://saves/%s.save" % [n.get_file()], File.WRITE)',
      '\tf.open("user://levels/" + n.get_file().get_basename() + ".tres", File.WRITE)',
      '\tf.open("user://save_" + n.get_file() + ".tres", File.WRITE)',
      '\tf.open("user://slot_%d.json" % 3, File.WRITE)',
      '\tf.open("user://settings.cfg", File.WRITE)',
      "\tvar d = Directory.new()",
      '\td.open("res://defaults")',
      "\td.list_dir_begin(true, true)",
      "\tvar e = d.get_next()",
      '\twhile e != "":',
      '\t\td.copy("res://defaults/" + e, "user://" + e)',
      "\t\te = d.get_next()",
    )).toEqual([])
  })
})
