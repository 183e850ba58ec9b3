// A NodePath becomes a String as its normalised path: NodePath(String) drops empty names and an ending `:`, and
// String(NodePath) joins what is left (core/node_path.cpp of 3.x). A ninety-sixth red team's `OS.callv(@"execute/", …)`,
// `funcref(OS, NodePath("execute:"))`, `Engine.get_singleton(@"OS/")` and `ACTIONS[str(@"jump/")]` ran in godot3-server
// while the scanner read the text as written: a NodePath literal's value is now the normalised path (parser.ts), and
// so is what `NodePath(…)` gives (evaluate.ts).
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const errorsOf = async (...body: ReadonlyArray<string>): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://a.gd": ["extends Node", "", ...body, ""].join("\n") })).filter((f) => f.split(" ")[1] === "error")

const lineErrors = (errors: ReadonlyArray<string>, line: number): ReadonlyArray<string> => errors.filter((f) => f.startsWith(`res://a.gd:${line} `))

describe("a NodePath named where a method or singleton name is read", () => {
  it.each([
    ["callv of NodePath(\"execute:\")", ["func _ready():", '\tOS.callv(NodePath("execute:"), ["touch", ["/tmp/x"]])'], 4],
    ["callv of @\"execute/\"", ["func _ready():", '\tOS.callv(@"execute/", ["touch", ["/tmp/x"]])'], 4],
    ["funcref of a table's @\"execute//\"", ['const NAMES = {"go": @"execute//"}', "func _ready():", '\tfuncref(OS, NAMES["go"]).call_func("touch", ["/tmp/x"])'], 5],
    ["connect to @\"execute:\"", ["func _ready():", '\tget_tree().connect("idle_frame", OS, @"execute:", ["touch", ["/tmp/x"]])'], 4],
    ["call of str(@\"execute/\")", ["func _ready():", '\tOS.call(str(@"execute/"), "touch", ["/tmp/x"])'], 4],
    ["call of \"%s\" % NodePath(\"execute:\")", ["func _ready():", '\tvar m = "%s" % NodePath("execute:")', '\tOS.call(m, "touch", ["/tmp/x"])'], 5],
    // A ninety-seventh red team's: one absolute name is that name as a StringName (NodePath::get_sname).
    ["callv of @\"/execute\"", ["func _ready():", '\tOS.callv(@"/execute", ["touch", ["/tmp/x"]])'], 4],
    ["callv of NodePath(\"//execute/\")", ["func _ready():", '\tOS.callv(NodePath("//execute/"), ["touch", ["/tmp/x"]])'], 4],
    ["a table's entry read by str(@\"jump/\")", ['const ACTIONS = {"jump/": "get_name", "jump": "execute"}', "func _ready():", '\tOS.callv(ACTIONS[str(@"jump/")], ["touch", ["/tmp/x"]])'], 5],
  ])("%s: an error at the call", async (_, body, line) => {
    expect(lineErrors(await errorsOf(...body), line)).not.toEqual([])
  })

  it("Engine.get_singleton(@\"OS/\") is OS", async () => {
    const errors = await errorsOf("func _ready():", '\tEngine.get_singleton(@"OS/").execute("touch", ["/tmp/x"])')
    expect(lineErrors(errors, 4)).not.toEqual([])
  })

  it("guard: node paths used as node paths are no error", async () => {
    expect(await errorsOf("func _ready():", '\tvar l = get_node(@"UI//Label:text")', '\tl = get_node(NodePath("UI/Label/"))', '\tprint(str(@"a/b:"))')).toEqual([])
  })
})
