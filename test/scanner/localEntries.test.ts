// Hunts 113 and 118's honest games (lookalike-rt113c-rt118c-saves-and-slots, a real export, but the member). A save function's
// `var data = {"grid": {}}` then `data.grid[k] = v` writes into a Dictionary: Godot gets the entry, writes into it and
// sets it back, so the entry stays the Dictionary the literal made, and no object's property is set by a name. Node's
// `owner` is what get_owner() gives. A member given only an instance of a pack class holds that instance.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const saver = (...body: ReadonlyArray<string>): string =>
  ["extends Node", "var grid = {}", "func put(cell, id):", "\tgrid[cell] = id", "func save():", '\tvar data = {"grid": {}, "money": 1}', ...body.map((l) => `\t${l}`), "\treturn data", ""].join("\n")

describe("a local Dictionary's entry", () => {
  it("is the literal's while code only writes into it, reads it, prints or saves the Dictionary", () => {
    expect(hits3(saver("for c in grid:", "\tdata.grid[str(c)] = grid[c]", '\tdata["money"] = 2', "print(data)", "var f = File.new()", "f.store_var(data)"))).toEqual([])
  })

  it("is not known where the literal has a key built at run time, which may replace it (a hundred-and-nineteenth red team's)", () => {
    const source = ["extends Node", "func _ready():", '\tvar k = "m"', '\tvar data = {"m": "get_name", k: "execute"}', '\tOS.call(data.m, "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(source)).toEqual(["5:2 error dynamic-dispatch OS.call(…)"])
    expect(hits3(source.replace("k: ", '"n": '))).toEqual([])
  })

  it.each([
    ['data.grid = self'],
    ['data["grid"] = self'],
    ["data[str(randi())] = self"],
    ['data.merge({"grid": self})'],
    ["var other = data", 'other["grid"] = self'],
    ["keep(data)"],
  ])("is not known once code may replace it (%j)", (...change) => {
    const source = saver(...change, "for c in grid:", "\tdata.grid[str(c)] = grid[c]").replace("\treturn data", "\treturn data\nfunc keep(d):\n\tpass")
    expect(hits3(source).some((h) => h.includes("error script-source-code data.grid[…] ="))).toBe(true)
  })
})

describe("Node's owner", () => {
  it("is a node of the scene tree, as get_owner() gives it", () => {
    const slot = ["extends Panel", "var item = null", "func drop_data(position, data):", '\titem = data["item"]', "\tif owner.has_method(item.use_method):", "\t\towner.call(item.use_method)", ""].join("\n")
    expect(hits3(slot)).toEqual([])
    expect(hits3(slot.replaceAll("owner", "get_meta(\"o\")"))).toEqual(['6:3 error dynamic-dispatch call(…)'])
  })

  it("is what the script answers where a class of the pack has `_get`", () => {
    const slot = ["extends Panel", "func _get(p):", "\treturn OS", "func drop(m):", "\towner.call(m)", ""].join("\n")
    expect(hits3(slot).some((h) => h.includes("5:2 error dynamic-dispatch"))).toBe(true)
  })
})

describe("a member given only an instance of a pack class", () => {
  const PLAYER = { "res://player.gd": "extends Node\nfunc use_potion(item = null):\n\tpass\n" }
  it("holds it: a call by a name not constant reaches the pack's methods", () => {
    const main = ["extends Node", 'const PlayerScript = preload("res://player.gd")', "var player = PlayerScript.new()", 'var names = {"potion": "use_potion"}', "func use_item(id):", "\tplayer.call(names[id])", ""].join("\n")
    expect(hits3(main, PLAYER)).toEqual([])
    // Swapped for anything, with a name not constant (`names` written a parameter), the call is the error.
    expect(hits3(main.replace("func use_item(id):", "func swap(o, k, v):\n\tplayer = o\n\tnames[k] = v\nfunc use_item(id):"), PLAYER)).toEqual(['9:2 error dynamic-dispatch call(…)'])
  })
})
