// A parameter's default value is what the function gets when called without that argument: a constant table handed as
// one is the table itself (Godot 3's constant Dictionaries are not read-only), so it is judged as an assignment at the
// top of the function (an eighty-fifth red team's, attackProjects132.ts, run by godot3-server).
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const script = (...body: ReadonlyArray<string>): string => ["extends Node", 'const T = {"go": "get_name", "n": 3}', "func _ready():", "\tfix()", '\tOS.callv(T["go"], [])', ...body, ""].join("\n")
const errorsOf = async (text: string): Promise<ReadonlyArray<string>> => (await scan3Files({ "res://a.gd": text })).filter((f) => f.split(" ")[1] === "error")

describe("a constant table as a parameter's default value", () => {
  it("handed whole, wrapped, or to a setter's or an inner class's parameter, then changed: the table is not followed", async () => {
    for (const fix of [
      ["func fix(t = T):", '\tt["go"] = "exe" + "cute"'],
      ["func fix(t = [T]):", '\tt[0]["go"] = "exe" + "cute"'],
      ["func fix(a = 1, t = {\"x\": T}):", '\tt["x"]["go"] = "exe" + "cute"'],
      ["var level = 0 setget set_level", "func fix():", "\tself.level = 1", "func set_level(v, t = T):", '\tt["go"] = "exe" + "cute"'],
      ["func fix():", "\tFixer.new().fix()", "class Fixer:", "\tfunc fix(t = T):", '\t\tt["go"] = "exe" + "cute"'],
    ]) {
      expect(await errorsOf(script(...fix)), fix.join(" | ")).toContain("res://a.gd:5 error dynamic-dispatch")
    }
  })

  it("a default reading one plain value of the table (`n = T[\"n\"]`, `m = T[\"go\"]`): the table is still followed", async () => {
    expect(await errorsOf(script("func fix(n = T[\"n\"], m = T[\"go\"]):", "\tprint(n + 1, m)"))).toEqual([])
  })

  describe("a parameter left out by a call holds its default (an eighty-sixth hunt's visual novel)", () => {
    const novel = (narrator: string): string =>
      [
        "extends Node",
        `const SPEAKERS = {"narrator": {"name": "N", "on_line": "${narrator}"}, "mira": {"name": "Mira", "on_line": "_on_line"}}`,
        'const MENU = {"new": {"on_press": "_on_new_game"}}',
        "func _ready():",
        "\tfor id in MENU:",
        '\t\tconnect("tree_exiting", self, MENU[id]["on_press"])',
        '\tsay("quiet")',
        '\tsay("market", SPEAKERS["mira"])',
        'func say(line, speaker = SPEAKERS["narrator"]):',
        '\tprint(speaker["name"])',
        '\tcall(speaker["on_line"], line)',
        "func _on_line(line):",
        "\tprint(line)",
        "func _on_new_game():",
        '\tsay("new")',
        "",
      ].join("\n")

    it("a dispatch by the parameter's strings: the default's and the calls' entries name it, so the tables stay followed", async () => {
      expect(await errorsOf(novel("_on_line"))).toEqual([])
    })

    it("a default entry naming a banned method (`execute`): the dispatch is judged as that method, as with the entry passed", async () => {
      expect(await errorsOf(novel("execute"))).toContain("res://a.gd:11 error os-process")
    })
  })
})
