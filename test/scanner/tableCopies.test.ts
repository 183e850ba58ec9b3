// A copy of a constant table's entry holds what the entry holds: a dispatch name read from it is the table's, while
// nothing is written into the copy or below it (a ninety-first hunt's button kit, `var spec = BUTTONS[id].duplicate()`
// then `connect("pressed", self, spec["on_press"])`; attackProjects135.ts's look-alike runs it in godot3-server).
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const errorsOf = async (text: string): Promise<ReadonlyArray<string>> => (await scan3Files({ "res://a.gd": text })).filter((f) => f.split(" ")[1] === "error")

const kit = (copy: string, ...more: ReadonlyArray<string>): string =>
  [
    "extends Node",
    'const BUTTONS = {"resume": {"text": "Resume", "on_press": "close", "tags": ["main"]}, "save": {"text": "Save", "on_press": "save", "tags": ["disk"]}}',
    "func _ready():",
    "\tfor id in BUTTONS:",
    `\t\t${copy}`,
    ...more.map((l) => `\t\t${l}`),
    "\t\tvar b = Button.new()",
    '\t\tb.connect("pressed", self, spec["on_press"])',
    "\t\tadd_child(b)",
    "func close():",
    "\tpass",
    "func save():",
    "\tpass",
    "",
  ].join("\n")
const CONNECT_LINE = (more: number): string => `res://a.gd:${7 + more} error dynamic-dispatch`

describe("a copy of a constant table's entry", () => {
  it("shallow, deep, of the whole table, or typed, and only read: the dispatch names the table's methods", async () => {
    for (const copy of ["var spec = BUTTONS[id].duplicate()", "var spec = BUTTONS[id].duplicate(true)", "var spec = BUTTONS.duplicate()[id]", "var spec: Dictionary = BUTTONS[id].duplicate()"]) {
      expect(await errorsOf(kit(copy)), copy).toEqual([])
    }
  })

  it("written into, below its entries, or copied by a `duplicate` of the pack's own: not followed (a guard)", async () => {
    expect(await errorsOf(kit("var spec = BUTTONS[id].duplicate()", 'spec["on_press"] = "exe" + "cute"'))).toContain(CONNECT_LINE(1))
    expect(await errorsOf(kit("var spec = BUTTONS[id].duplicate()", 'spec["tags"].append("x")'))).toContain(CONNECT_LINE(1))
    const own = `${kit("var spec = BUTTONS[id].duplicate(true)")}class Box:\n\tfunc duplicate(_deep = false):\n\t\treturn self\n`
    expect(await errorsOf(own)).toContain(CONNECT_LINE(0))
  })

  it("reached by another name, a call, a container, a meta or a signal, then written: not followed (a ninety-second red team's)", async () => {
    const copied = (more: ReadonlyArray<string>, after = ""): string =>
      ["extends Node", 'const BUTTONS = {"b": {"text": "B", "on_press": "get_name"}}', "signal go(d)", "func _ready():", '\tvar spec = BUTTONS["b"].duplicate()', ...more.map((l) => `\t${l}`), '\tOS.callv(spec["on_press"], [])', after].join("\n")
    const fix = 'func fix(d):\n\td["on_press"] = "exe" + "cute"\n'
    for (const [more, after] of [
      [["var alias = spec", 'alias["on_press"] = "exe" + "cute"'], ""],
      [["fix(spec)"], fix],
      [['call("fix", spec)'], fix],
      [["for v in [spec]:", '\tv["on_press"] = "exe" + "cute"'], ""],
      [["var h = [spec]", 'h[0]["on_press"] = "exe" + "cute"'], ""],
      [['set_meta("s", spec)', 'get_meta("s")["on_press"] = "exe" + "cute"'], ""],
      [['emit_signal("go", spec)'], `func _init():\n\tconnect("go", self, "fix")\n${fix}`],
    ] as const) {
      expect(await errorsOf(copied(more, after)), more.join(" | ")).toContain(`res://a.gd:${6 + more.length} error dynamic-dispatch`)
    }
  })
})
