// Text scenes (.tscn/.tres): built-in scripts, their position in the file, and what the streaming reader keeps.
import { describe, expect, it } from "vitest"
import { mapUnescapedPosition, unescapeGodotString } from "../../adapters/scanner/resource/godotString.ts"
import { TextResourceReader } from "../../adapters/scanner/resource/textResource.ts"

const read = (text: string, chunk = text.length, grammar: 3 | 4 = 4) => {
  const bytes = new TextEncoder().encode(text)
  const reader = new TextResourceReader(grammar)
  for (let i = 0; i < bytes.length; i += chunk) reader.feed(bytes.subarray(i, i + chunk))
  return reader.finish()
}

const SOURCE = '"extends Reference\\nfunc go(m):\\n\\tOS.execute(\\"touch\\", [m])\\n"'
const GO = 'extends Reference\nfunc go(m):\n\tOS.execute("touch", [m])\n'
const scripts = (text: string, grammar: 3 | 4 = 3) => read(text, text.length, grammar).scripts.map((s) => [s.subResource, s.start.line, s.source])

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

  it("reads script sources the ways the engine's parser reads them (each loaded and ran in Godot 3.2.3)", () => {
    const resource = (...lines: ReadonlyArray<string>) => ['[gd_resource type="GDScript" format=2]', "", ...lines, ""].join("\n")
    expect(scripts(resource("[resource]", `source_code = ${SOURCE}`))).toEqual([["", 4, GO]])
    expect(scripts(resource("[resource]", `"script/source" = ${SOURCE}`))).toEqual([["", 4, GO]])
    expect(scripts(resource("[resource]", "script/source =", SOURCE))).toEqual([["", 5, GO]])
    expect(scripts(resource(`[resource] script/source = ${SOURCE}`))).toEqual([["", 3, GO]])
    expect(scripts(resource("[resource]", `scr ipt / source = ${SOURCE}`))).toEqual([["", 4, GO]])
    expect(scripts(resource("[resource]", `x"script/" source = ${SOURCE}`))).toEqual([["", 4, GO]])
    expect(scripts(['[gd_scene load_steps=2 format=2]', '[sub_resource type="GDScript" id=1]', `"script/source" = ${SOURCE}`, '[node name="S" type="Node"]', "script = SubResource( 1 )"].join("\n"))).toEqual([["1", 3, GO]])
    // A script built in a value: Object(GDScript, …) anywhere, here as a resource's script.
    expect(scripts(['[gd_resource type="Resource" format=2]', "[resource]", `script = Object(GDScript,"script/source":${SOURCE})`].join("\n"))).toEqual([["Object@3:10", 3, GO]])
    // Comments and other keys around it change nothing; a key that only looks similar is not the source.
    expect(scripts(resource("[resource]", "; script/source = \"x\"", `script/sourcex = ${SOURCE}`))).toEqual([])
  })

  it("decodes escapes as each engine does: Godot 3 keeps an escape's low byte, Godot 4 makes one above U+00FF a space", () => {
    const text = ['[gd_resource type="GDScript" format=2]', "[resource]", 'script/source = "\\u014f\\u0153.execute()"'].join("\n")
    expect(read(text, text.length, 3).scripts[0]?.source).toBe("OS.execute()")
    expect(read(text, text.length, 4).scripts[0]?.source).toBe("  .execute()")
    // Godot 4: a UTF-16 pair or \\U makes one character, above U+00FF a space too; \\u00e9 is the byte E9, which then
    // breaks the UTF-8 that follows (it becomes U+FFFD and takes the "|" with it); raw UTF-8 decodes.
    const pair = ['[gd_resource type="GDScript" format=2]', "[resource]", 'script/source = "\\ud83d\\ude00|\\U01F600|\\u00e9|é|\\" \\\\"'].join("\n")
    expect(read(pair, pair.length, 4).scripts[0]?.source).toBe(' | |\ufffdé|" \\')
    // Godot 3: the low bytes of \\ud83d\\ude00 are "=" and NUL, and the text ends at the NUL.
    expect(read(pair, pair.length, 3).scripts[0]?.source).toBe("=")
    // Bytes Godot 3's first pass refuses (a lead byte where a continuation is due) stay the characters as read: escapes
    // whole, bytes as Latin-1 (\\U is no escape in 3.x). Bytes it decodes only part-way are refused (halfDecodedStrings.test.ts).
    const latin = ['[gd_resource type="GDScript" format=2]', "[resource]", 'script/source = "\\U01F600|\\u00e9|é"'].join("\n")
    expect(read(latin, latin.length, 3).scripts[0]?.source).toBe("U01F600|\u00e9|\u00c3\u00a9")
  })

  it("paths the resource loads, property paths of animation tracks, and connections with their binds", () => {
    const facts = read(
      [
        "[gd_scene load_steps=3 format=2]",
        '[ext_resource path="user://evil.gd" type="Script" id=1]',
        '[ext_resource path="../level.tscn" type="PackedScene" id=2]',
        '[sub_resource type="Animation" id=3]',
        'tracks/0/path = NodePath(".:s:source_code")',
        '[node name="A" type="Node"]',
        'theme = Resource("/tmp/theme.tres")',
        '[node name="B" parent="." instance_placeholder="C:/x.tscn"]',
        '[connection signal="timeout" from="T" to="." method="set_indexed" binds= [ "s:source_code", 1, "x" ]]',
      ].join("\n"),
    )
    expect(facts.loadedPaths.map((p) => [p.path, p.what, p.at.line])).toEqual([
      ["user://evil.gd", "[ext_resource] Script", 2],
      ["../level.tscn", "[ext_resource] PackedScene", 3],
      ["/tmp/theme.tres", "Resource()", 7],
      ["C:/x.tscn", "instance_placeholder", 8],
    ])
    expect(facts.propertyWrites.map((w) => [w.path, w.at.line])).toEqual([[".:s:source_code", 5]])
    // Numbers keep their places among the binds (the method sees each bind at its position).
    expect(facts.connections.map((c) => [c.method, c.binds, c.at.line])).toEqual([["set_indexed", ["s:source_code", 1, "x"], 9]])
  })

  it("what the engine cannot parse is malformed: an unknown character, a value cut off, an unpaired surrogate (Godot 4)", () => {
    expect(() => read('[gd_scene format=2]\n[node name="A" type="Node"]\nx = `\n')).toThrow(/unexpected character/)
    expect(() => read('[gd_scene format=2]\n[node name="A" type="Node"]\nx = [ 1, 2\n')).toThrow(/ends inside a value/)
    expect(() => read('[gd_scene format=2]\n[node name="A" type="Node"]\nx = "\\ud83d"\n')).toThrow(/surrogate/)
    // Numbers and base64 of packed arrays are read past, not kept.
    const big = `[gd_resource type="Resource" format=2]\n[resource]\ndata = PoolIntArray( ${Array.from({ length: 5000 }, (_, i) => i).join(", ")} )\nbytes = PackedByteArray("${"QUJD".repeat(5000)}")\n`
    expect(read(big).scripts).toEqual([])
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

describe("a [sub_resource] repeating an id (a seventy-first red team's autoload scene)", () => {
  const twice = ["[gd_scene load_steps=3 format=2]", "", '[sub_resource type="GDScript" id=1]', `script/source = ${SOURCE}`, "", '[sub_resource type="GDScript" id=1]', 'script/source = "extends Node\\n"', "", '[node name="Root" type="Node"]', "script = SubResource( 1 )", ""].join("\n")

  it("is read as the engine reads it: the first block's properties, the second's left out, and the repeat reported", () => {
    const facts = read(twice, twice.length, 3)
    expect(facts.scripts.map((s) => s.source)).toEqual([GO])
    expect(facts.rootScript).toEqual({ _tag: "BuiltIn", subResource: "1" })
    expect(facts.repeatedSubResources).toEqual([{ id: "1", at: { line: 6, column: 1 } }])
  })

  it("ids that differ are no repeat", () => {
    const facts = read(twice.replace('[sub_resource type="GDScript" id=1]\nscript/source = "extends Node', '[sub_resource type="GDScript" id=2]\nscript/source = "extends Node'), twice.length, 3)
    expect(facts.repeatedSubResources).toEqual([])
    expect(facts.scripts).toHaveLength(2)
  })
})
