// A hundred-and-first red team's: an object given a resource's path stands in the engine's resource cache for the file
// there (Resource::set_path; ResourceLoader::load returns the cached object), so a later load of the path gives it.
// Every way code gives an object a path is a resource-path-takeover error; the pack's own `set_path` is not.
import { describe, expect, it } from "vitest"
import { hits3, hitsIn } from "./support/analyze.ts"

const takeovers = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.includes("resource-path-takeover")).map((h) => h.split(" ")[0] ?? "")

const script = (...body: ReadonlyArray<string>): string => ["extends Node", "", "func _ready():", ...body.map((l) => `\t${l}`), ""].join("\n")

describe("resource-path-takeover", () => {
  it.each([
    ["take_over_path", 'load("res://b.gd").take_over_path("res://a.gd")'],
    ["resource_path =", 'load("res://b.gd").resource_path = "res://a.gd"'],
    ["set_path", 'load("res://b.gd").set_path("res://a.gd")'],
    ["set(\"resource_path\", …)", 'load("res://b.gd").set("resource_path", "res://a.gd")'],
    ["call(\"take_over_path\", …)", 'load("res://b.gd").call("take_over_path", "res://a.gd")'],
    ["set_indexed(\"resource_path\", …)", 'load("res://b.gd").set_indexed("resource_path", "res://a.gd")'],
    ["a subscript", 'load("res://b.gd")["resource_path"] = "res://a.gd"'],
    ["a name built from constants", 'load("res://b.gd").set("resource" + "_path", "res://a.gd")'],
  ])("is an error for %s", (_what, line) => {
    expect(takeovers(hits3(script(line)))).toEqual(["4:2"])
  })

  it("is an error in Godot 4 too", () => {
    expect(takeovers(hitsIn(script('load("res://b.gd").take_over_path("res://a.gd")')))).toEqual(["4:2"])
  })

  it("is an error for a name not constant written on an engine Resource, and not on a node", () => {
    const found = hits3(script("var k = str(get_meta(\"k\"))", "var img = Image.new()", 'img.set(k, "res://a.gd")', "var label = Label.new()", 'label.set(k, "res://a.gd")'))
    expect(takeovers(found)).toEqual(["6:2"])
  })

  it("is an error for a name not constant written on the pack's own Resource (a stats class filled from data)", () => {
    const stats = ["extends Resource", "", "var hp = 1", "", "func apply(d):", "\tfor k in d:", "\t\tset(k, d[k])", "\tfor k in d:", "\t\tself[k] = d[k]", "", "func reset(d):", "\tfor k in [\"hp\"]:", "\t\tself[k] = d[k]", "", "func level(k: String, n: int):", "\tset(k, n)", ""].join("\n")
    expect(takeovers(hits3(stats))).toEqual(["7:3", "9:3"])
  })

  it("is no finding for the pack's own set_path (a path-following enemy)", () => {
    const enemy = ["extends Node2D", "", "var points = []", "", "func set_path(p):", "\tpoints = p", ""].join("\n")
    const found = hits3(["extends Node2D", "", 'const Enemy = preload("res://enemy.gd")', "", "func _ready():", "\tvar e = Enemy.new()", "\te.set_path([Vector2(1, 1)])", "\tset_path([])", "", "func set_path(p):", "\tprint(p)", ""].join("\n"), { "res://enemy.gd": enemy })
    expect(found).toEqual([])
  })
})
