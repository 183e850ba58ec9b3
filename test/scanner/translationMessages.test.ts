// Messages a Translation is given at run time are BBCode `tr()` hands a RichTextLabel: judged where they are given,
// on a variable typed with a base of Translation and when written as its `messages` list (a fifty-fifth red team's,
// attackProjects101.ts, run by godot3-server). A Dictionary's `messages` key is no Translation's.
import { describe, expect, it } from "vitest"
import { lines } from "./fixtures/godotProjects.ts"
import { scan3Files } from "./support/scan.ts"

const TAG = '"[img]user://x.tres[/img]"'

/** Errors of a script whose line 4 gives `t` (made at line 3 by `make`) the message by `give`. */
const errors = async (make: string, give: string): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://game/t.gd": lines("extends Node", "func _ready():", `\t${make}`, `\t${give}`, "\tprint(t)") })).filter((f) => f.includes(" error "))

describe("messages given to a Translation at run time", () => {
  it("are judged on a variable typed Resource, and written as the messages list", async () => {
    expect(await errors("var t: Resource = Translation.new()", `t.add_message("K", ${TAG})`)).toContain("res://game/t.gd:4 error runtime-code-loading")
    expect(await errors("var t = Translation.new()", `t.messages = PoolStringArray(["K", ${TAG}])`)).toContain("res://game/t.gd:4 error runtime-code-loading")
    expect(await errors("var t = Translation.new()", `t.set("messages", PoolStringArray(["K", ${TAG}]))`)).toContain("res://game/t.gd:4 error runtime-code-loading")
  })

  it("are not a Dictionary's messages", async () => {
    expect(await errors("var t = {}", `t.messages = [${TAG}]`)).toEqual([])
    expect(await errors("var t = Translation.new()", 't.messages = PoolStringArray(["K", "[b]Hello[/b]"])')).toEqual([])
  })
})
