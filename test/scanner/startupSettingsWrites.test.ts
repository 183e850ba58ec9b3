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
  ])("%s: an error", async (_, body) => {
    expect((await errorsOf(...body)).some((f) => f.endsWith("runtime-code-loading"))).toBe(true)
  })

  it("guard: a name built at run time with an extension of the game's own, a number, or an entry of a listing, is no error", async () => {
    expect(await errorsOf(
      "func _ready():",
      "\tvar f = File.new()",
      '\tvar n = OS.get_environment("N")',
      '\tf.open("user://" + n.get_file() + ".save", File.WRITE)',
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
