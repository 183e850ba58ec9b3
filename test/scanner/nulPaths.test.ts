// A hundred-and-eighteenth red team's (attackProjects143.ts, run by godot3-server from its user:// folder): Godot 3's
// tokenizer keeps a `\u0000` escape as a character, the loader picks the loader by the whole path's extension and
// looks the whole path up in the pack, which has no such file, then opens the path cut at the NUL from the disk:
// `load("res://attack/notes.txt\u0000.gd")` ran a text file the game had written as a script. The scanner knew only
// the part before the NUL, a file of the pack, and warned.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const inReady = (...body: ReadonlyArray<string>): string => ["extends Node", "func _ready():", ...body.map((l) => `\t${l}`), ""].join("\n")
const errors = (source: string): ReadonlyArray<string> => hits3(source, { "res://attack/notes.txt.gd": "extends Node\n" }).filter((h) => h.includes(" error "))

describe("a load path holding a NUL", () => {
  it.each([
    'var s = load("res://attack/notes.txt\\u0000.gd")',
    'var s = load("res://attack/notes.txt" + "\\u0000.gd")',
    'var s = load("res://attack/%s" % "notes.txt\\u0000.gd")',
    'var s = ResourceLoader.load("res://attack/notes.txt\\u0000.gd")',
    'var s = preload("res://attack/notes.txt\\u0000.gd")',
  ])("is an error: %s", (line) => {
    expect(errors(inReady(line))).toEqual([expect.stringMatching(/^3:\d+ error runtime-code-loading /)])
  })

  it("leaves a path without one as it was: a res:// literal is clean, one built under res:// a warning", () => {
    expect(hits3(inReady('var s = load("res://attack/notes.txt.gd")'), { "res://attack/notes.txt.gd": "extends Node\n" })).toEqual([])
    expect(hits3(inReady('var s = load("res://attack/" + str(randi()) + ".gd")'))).toEqual([expect.stringMatching(/^3:\d+ warning runtime-code-loading /)])
  })
})
