// A Dictionary literal keeps a String key and a NodePath key of the same text apart (`{"k": a, @"k": b}` has two entries
// in Godot 3.2.3; `d["k"]` reads the String's): a ninety-fifth red team's `{"verb": "exe" + "cute", @"verb": "get_name"}`
// then `OS.callv(ACTIONS["verb"], …)` ran `execute`, as the scanner read the key's last entry. Every entry of the
// text counts now (ast.ts valuesAtKey), wherever a literal's entry is looked up by its key.
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const errorsOf = async (source: string): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://a.gd": source })).filter((f) => f.split(" ")[1] === "error")

const script = (...body: ReadonlyArray<string>): string => ["extends Node", "", ...body, ""].join("\n")

describe("a String key and a NodePath key of one text", () => {
  it("a constant table read by the key: both entries are the names it gives", async () => {
    for (const table of ['{"verb": "exe" + "cute", @"verb": "get_name"}', '{@"verb": "get_name", "verb": "exe" + "cute"}']) {
      const found = await errorsOf(script(`const ACTIONS = ${table}`, "func _ready():", '\tOS.callv(ACTIONS["verb"], ["touch", ["/tmp/x"]])'))
      expect(found, table).toContain("res://a.gd:5 error os-process")
    }
  })

  it("a copy of a table's entry read by a constant key", async () => {
    const found = await errorsOf(script('const BUTTONS = {"b": {"on_press": "exe" + "cute", @"on_press": "get_name"}}', "func _ready():", '\tvar spec = BUTTONS["b"].duplicate()', '\tOS.callv(spec["on_press"], ["touch", ["/tmp/x"]])'))
    expect(found).toContain("res://a.gd:6 error os-process")
  })

  it("dict2inst's @path: every entry of the text must be a script of the pack", async () => {
    const found = await errorsOf(script("func _ready():", '\tvar o = dict2inst({@"@path": "res://a.gd", "@path": "user://x.gd"})'))
    expect(found.some((f) => f.startsWith("res://a.gd:4 error"))).toBe(true)
  })

  it("a method track key: every entry named method is judged", async () => {
    const found = await errorsOf(script("func _ready():", "\tvar a = Animation.new()", "\tvar t = a.add_track(Animation.TYPE_METHOD)", '\ta.track_insert_key(t, 0.0, {@"method": "get_name", "method": "exe" + "cute", "args": ["touch", ["/tmp/x"]]})'))
    expect(found.some((f) => f.startsWith("res://a.gd:6 error"))).toBe(true)
  })

  it("guard: a table of one key per text still gives only its entry", async () => {
    expect(await errorsOf(script('const ACTIONS = {"verb": "get_name", @"other": "exe" + "cute"}', "func _ready():", '\tOS.callv(ACTIONS["verb"], [])'))).toEqual([])
  })
})
