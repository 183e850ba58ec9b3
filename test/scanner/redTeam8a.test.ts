// The analysis side of what an eighth red team got past pckgate-scanner/10 (attackProjects14.ts holds the packs
// the engine ran): run-time writes of the settings that place user://, Directory paths that are not relative to
// the open folder, paths the engine opens itself in resources, and `:=` typing a member by its literal.
import { describe, expect, it } from "vitest"
import { TextResourceReader } from "../../adapters/scanner/resource/textResource.ts"
import { hitsIn } from "./support/analyze.ts"

const script = (...body: ReadonlyArray<string>): string => ["extends Node", "func _ready():", ...body.map((l) => `\t${l}`), ""].join("\n")
const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.split(" ")[1] === "error").map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)

describe("project settings that place user://, written at run time", () => {
  it.each([3, 4] as const)("are filesystem-outside-sandbox errors however they are written (Godot %i)", (grammar) => {
    const found = hitsIn(
      script(
        'ProjectSettings.set_setting("application/config/name", "Victim")',
        "ProjectSettings.set_setting(\"application/config/use_custom_user_dir\", true)",
        'ProjectSettings.set("application/config/custom_user_dir_name", "applications")',
        'ProjectSettings.call("set_setting", "application/config/name", "Victim")',
        'var key = "application/config/" + "name"',
        "ProjectSettings.set_setting(key, get_name())",
      ),
      {},
      grammar,
    )
    expect(errors(found)).toEqual(["3 filesystem-outside-sandbox", "4 filesystem-outside-sandbox", "5 filesystem-outside-sandbox", "6 filesystem-outside-sandbox", "8 filesystem-outside-sandbox"])
  })

  it("other settings, and reading these, stay clean", () => {
    const found = hitsIn(script('ProjectSettings.set_setting("display/window/size/width", 800)', 'print(ProjectSettings.get_setting("application/config/name"))'), {}, 3)
    expect(errors(found)).toEqual([])
  })
})

describe("Directory paths the engine does not fix against the open folder", () => {
  it("open and copy take a relative path in the working folder: errors; the methods that fix it stay clean", () => {
    const found = hitsIn(
      script(
        "var d = Directory.new()",
        'd.open(".")',
        'd.open("user://")',
        'd.copy("res://project.binary", ".bashrc")',
        'd.copy(".ssh/id_rsa", "user://k.txt")',
        'd.remove("old.sav")',
        'd.make_dir("saves")',
        'd.copy("user://a.sav", "user://b.sav")',
        'd.open("res://levels")',
      ),
      {},
      3,
    )
    expect(errors(found)).toEqual(["4 filesystem-outside-sandbox", "6 filesystem-outside-sandbox", "7 filesystem-outside-sandbox"])
  })

  it("a file opened by a relative path is in the working folder: an error, read or write", () => {
    expect(errors(hitsIn(script("var f = File.new()", 'f.open("notes.txt", File.READ)', 'f.open(".profile", File.WRITE)', 'f.open("user://notes.txt", File.READ)'), {}, 3))).toEqual(["4 filesystem-outside-sandbox", "5 filesystem-outside-sandbox"])
  })
})

describe("paths the engine opens itself", () => {
  it("StreamTexture.load_path written in code is judged like its setter load", () => {
    const found = hitsIn(script("var t = StreamTexture.new()", 't.load_path = "/tmp/x.stex"', 't.load_path = "x.stex"', 't.load_path = "res://art/icon.stex"'), {}, 3)
    expect(errors(found)).toEqual(["4 filesystem-outside-sandbox", "5 filesystem-outside-sandbox"])
  })

  it("in a text resource, load_path, font_path and file are paths the resource loads, by its class", () => {
    const reader = new TextResourceReader(3)
    const text = ['[gd_resource type="StreamTexture" format=2]', "", '[sub_resource type="DynamicFontData" id=1]', 'font_path = "/usr/share/fonts/x.ttf"', '[sub_resource type="Resource" id=2]', 'file = "/not/loaded"', "[resource]", 'load_path = "/tmp/x.stex"'].join("\n")
    reader.feed(new TextEncoder().encode(text))
    const facts = reader.finish()
    expect(facts.loadedPaths.map((p) => [p.path, p.what, p.at.line, p.opened])).toEqual([
      ["/usr/share/fonts/x.ttf", "DynamicFontData.font_path", 4, true],
      ["/tmp/x.stex", "StreamTexture.load_path", 8, true],
    ])
  })
})

describe("`:=` types a member by its literal", () => {
  it("a Dictionary member written by a key that is not constant is no script, next to a trigger calling an exported method name", () => {
    const inventory = ["extends Node", "signal changed", "var items := {}", "func add(item, n = 1):", "\titems[item] = items.get(item, 0) + n", '\temit_signal("changed")', ""].join("\n")
    const trigger = ["extends Area2D", "export(NodePath) var target_path", 'export var method := "activate"', "func _on_body_entered(body):", "\tvar target = get_node(target_path)", "\tif target and target.has_method(method):", "\t\ttarget.call(method)", ""].join("\n")
    expect(errors(hitsIn(inventory, { "res://src/trigger.gd": trigger }, 3))).toEqual([])
  })
})
