// Text scenes (.tscn/.tres): built-in scripts, their position in the file, and what the streaming reader keeps.
import { describe, expect, it } from "vitest"
import { mapUnescapedPosition, unescapeGodotString } from "../../adapters/scanner/resource/godotString.ts"
import { TextResourceReader } from "../../adapters/scanner/resource/textResource.ts"

const read = (text: string, chunk = text.length) => {
  const reader = new TextResourceReader()
  for (let i = 0; i < text.length; i += chunk) reader.feed(text.slice(i, i + chunk))
  return reader.finish()
}

const SCENE = [
  "[gd_scene load_steps=3 format=3]", // 1
  "", // 2
  '[ext_resource type="Script" path="res://other.gd" id="1_x"]', // 3
  "", // 4
  '[sub_resource type="GDScript" id="GDScript_a1"]', // 5
  'script/source = "extends Node', // 6
  'const S = \\"[sub_resource type=\\\\\\"GDScript\\\\\\"]\\"', // 7: a string that looks like a header
  "func _ready():", // 8
  '\\tOS.kill(1)', // 9: an escaped tab
  '"', // 10
  "", // 11
  '[node name="Root" type="Node2D"]', // 12
  'script = SubResource("GDScript_a1")', // 13
  'text = "multi', // 14
  "[node name=\\\"fake\\\" type=\\\"HTTPRequest\\\"]", // 15: inside a string, not a node
  '"', // 16
  "", // 17
  '[node name="Child" type="Label" parent="."]', // 18
  'script = ExtResource("1_x")', // 19
  "",
].join("\n")

describe("TextResourceReader", () => {
  it("finds the built-in script, the root script, and the real nodes only", () => {
    const facts = read(SCENE)
    expect(facts.scripts.map((s) => [s.subResource, s.start])).toEqual([["GDScript_a1", { line: 6, column: 18 }]])
    expect(facts.scripts[0]?.source).toBe('extends Node\nconst S = "[sub_resource type=\\"GDScript\\"]"\nfunc _ready():\n\tOS.kill(1)\n')
    expect(facts.rootScript).toEqual({ _tag: "BuiltIn", subResource: "GDScript_a1" })
    expect(facts.nodeTypes.map((n) => [n.name, n.type, n.line])).toEqual([
      ["Root", "Node2D", 12],
      ["Child", "Label", 18],
    ])
  })

  it("gives the same result whatever the chunk boundaries", () => {
    const whole = read(SCENE)
    for (const chunk of [1, 2, 3, 7, 64]) expect(read(SCENE, chunk)).toEqual(whole)
  })

  it("Godot 3 syntax: numeric ids, spaced resource calls, an external root script", () => {
    const facts = read(['[gd_scene load_steps=2 format=2]', '[ext_resource path="res://main.gd" type="Script" id=1]', '[node name="Main" type="Node2D"]', "script = ExtResource( 1 )", ""].join("\n"))
    expect(facts.rootScript).toEqual({ _tag: "File", path: "res://main.gd" })
  })

  it("a standalone GDScript resource (.tres with [resource] script/source)", () => {
    const facts = read(['[gd_resource type="GDScript" format=2]', "", "[resource]", 'script/source = "extends Node"', ""].join("\n"))
    expect(facts.scripts.map((s) => s.source)).toEqual(["extends Node"])
  })

  it("an unterminated built-in script is malformed, not silently ignored", () => {
    expect(() => read('[gd_scene format=3]\n[sub_resource type="GDScript" id="a"]\nscript/source = "extends Node\n')).toThrow(/no closing quote/)
  })
})

describe("godot string positions", () => {
  it("unescapes like the engine", () => {
    expect(unescapeGodotString('a\\"b\\\\c\\td\\u0041\\U01F600\\q')).toBe('a"b\\c\td' + "A😀q")
  })

  it("maps script positions to file positions across escapes and \\n escapes", () => {
    const raw = 'x = \\"a\\"; OS.kill(1)\nb\\nOS.kill(2)'
    const start = { line: 10, column: 18 }
    // script line 1, column 10 is the "O" after `x = "a"; `; in the file two escapes come before it
    expect(mapUnescapedPosition(raw, start, { line: 1, column: 10 })).toEqual({ line: 10, column: 29 })
    // script line 3 starts after the \n escape, on file line 11
    expect(mapUnescapedPosition(raw, start, { line: 3, column: 1 })).toEqual({ line: 11, column: 4 })
  })
})
