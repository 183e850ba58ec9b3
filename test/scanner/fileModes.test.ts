// The mode a file is opened in decides whether the open is a write (gdscript/fileRules.ts mayWrite): only the engine's
// own `File.READ` / `FileAccess.READ` is taken for a read by its name; a `READ` of the pack's own is judged by its value.
// A seventeenth red team's `const READ = File.WRITE` then `f.open(p, self.READ)` wrote `res://override.cfg` (an
// autoload of a script the pack wrote, run at the next start) and a file at a path from the environment, both with no
// error. The shapes, on the analysis alone (attackProjects43.ts runs the write-then-load shape in godot3-server).
import { describe, expect, it } from "vitest"
import { hits3, hitsIn } from "./support/analyze.ts"

const errorLines = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.includes(" error ")).map((h) => `${h.split(" ")[0]} ${h.split(" ")[2]}`)

describe("a file open's mode", () => {
  it("Godot 3: a READ of the pack's own holding File.WRITE is a write; the engine's File.READ is a read", () => {
    const source = ["extends Node", "const READ = File.WRITE", "func _ready():", "\tvar f = File.new()", '\tf.open("res://override.cfg", self.READ)', '\tf.open("res://data.txt", File.READ)', '\tf.open("res://override.cfg", READ)', "\tvar m = self", '\tf.open("res://override.cfg", m.READ)', ""].join("\n")
    const lines = errorLines(hits3(source)).map((l) => l.split(":")[0])
    expect(lines).toEqual(["5", "7", "9"])
  })

  it("Godot 3: a READ of another class of the pack is judged by its value", () => {
    const modes = ["extends Reference", "class_name Modes", "const READ = File.WRITE", ""].join("\n")
    const source = ["extends Node", "func _ready():", "\tvar f = File.new()", '\tf.open("res://override.cfg", Modes.READ)', ""].join("\n")
    expect(errorLines(hits3(source, { "res://modes.gd": modes })).length).toBe(1)
  })

  it("Godot 4: FileAccess.READ is a read, a constant of the pack's named READ holding WRITE is a write", () => {
    const source = ["extends Node", "const READ = FileAccess.WRITE", "func _ready():", '\tvar a = FileAccess.open("res://data.txt", FileAccess.READ)', '\tvar b = FileAccess.open("res://override.cfg", self.READ)', ""].join("\n")
    const lines = errorLines(hitsIn(source)).map((l) => l.split(":")[0])
    expect(lines).toEqual(["5"])
  })
})
