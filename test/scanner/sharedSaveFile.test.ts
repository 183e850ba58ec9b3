// One File reads the pack's JSON, then a save after a `file_exists` check (a fifty-fourth hunt's achievements screen):
// the JSON read before the save is opened is still the pack's data, so its BBCode is judged by the file's strings. A
// File opened on another file before the read still makes it data read at run time.
import { describe, expect, it } from "vitest"
import { lines } from "./fixtures/godotProjects.ts"
import { scan3Files } from "./support/scan.ts"

const ACHIEVEMENTS = '[{"id": "first_blood", "title": "First [b]blood[/b]", "desc": "Win once", "points": 10}]'

/** The errors of an achievements autoload whose `_ready` reads with `f` as `reads` say, then shows each title as BBCode (line 9 + the lines of `reads`). */
const errors = async (reads: ReadonlyArray<string>): Promise<ReadonlyArray<string>> =>
  (
    await scan3Files({
      "res://data/ach.json": ACHIEVEMENTS,
      "res://game/ach.gd": lines("extends Node", "var defs = []", "var unlocked = {}", "func _ready():", "\tvar f := File.new()", ...reads, "\tvar box = RichTextLabel.new()", "\tadd_child(box)", "\tfor a in defs:", '\t\tbox.append_bbcode("[b]%s[/b] - %s +%d\\n" % [a["title"], a["desc"], a["points"]])'),
    })
  ).filter((f) => f.includes(" error "))

const PACK_READ = ['\tf.open("res://data/ach.json", File.READ)', "\tdefs = parse_json(f.get_as_text())", "\tf.close()"]
const SAVE_READ = ['\t\tf.open("user://ach.json", File.READ)', "\t\tunlocked = parse_json(f.get_as_text())", "\t\tf.close()"]

describe("a File that reads the pack's JSON, then a save", () => {
  it("keeps the JSON the pack's data when the save is only asked about and opened after the read", async () => {
    expect(await errors([...PACK_READ, '\tif f.file_exists("user://ach.json"):', ...SAVE_READ])).toEqual([])
  })

  it("is data read at run time when the save is opened before it (the analysis does not follow which open a read comes after)", async () => {
    expect(await errors(['\tif f.file_exists("user://ach.json"):', ...SAVE_READ, ...PACK_READ])).toContain("res://game/ach.gd:16 error runtime-code-loading")
  })
})
