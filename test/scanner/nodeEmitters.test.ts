// A hundred-and-nineteenth hunt's upgrade buttons (a tower defense): `Button.new()` connected with a bind is a node,
// whose `pressed` has no argument (BaseButton; ButtonGroup's `pressed(button)` is a Resource's), so the bind is the
// handler's first parameter and the name built from it is known. engine-node-classes.json lists Godot 3's Node classes
// (ClassDB.is_parent_class of the engine binary, test/scanner/support/generateEngineNodeClasses.ts).
import { describe, expect, it } from "vitest"
import { isEngineNodeClass } from "../../adapters/scanner/gdscript/engineScriptNames.ts"
import { hits3 } from "./support/analyze.ts"

const buttons = (emitter: string, signal: string): string =>
  ["extends Node", "func _ready():", `\tvar b = ${emitter}`, "\tadd_child(b)", `\tb.connect("${signal}", self, "on_up", ["damage"])`, "func on_up(stat):", '\tNode2D.new().call("upgrade_" + stat)', ""].join("\n")

describe("a connection's emitter made by an engine class", () => {
  it("is a node when the class inherits Node: a bind after `pressed` is the first parameter", () => {
    expect(hits3(buttons("Button.new()", "pressed"))).toEqual([])
    expect(hits3(buttons("TextureButton.new()", "pressed"))).toEqual([])
  })

  it("is any object otherwise: ButtonGroup's `pressed` has one argument, so the bind may be the second parameter", () => {
    expect(hits3(buttons("ButtonGroup.new()", "pressed"))).toEqual(['7:2 error dynamic-dispatch call(…)'])
  })

  it("reads the engine's Node classes from the binary's table", () => {
    expect([isEngineNodeClass("Button"), isEngineNodeClass("Timer"), isEngineNodeClass("Node"), isEngineNodeClass("ButtonGroup"), isEngineNodeClass("Resource")]).toEqual([true, true, true, false, false])
  })
})
