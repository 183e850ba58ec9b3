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
})
