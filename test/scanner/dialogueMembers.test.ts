// A twenty-ninth false-positive hunt's dialogue box: lines a member is given from the pack's JSON by a key not constant
// (`lines = conversations[name]` after `var lines = []`) were data of no known kind, so their BBCode was the
// runtime-code-loading error. Every writer of the member in sight writing the pack's data keeps it that data (evaluate.ts
// #dataWrittenElsewhere), judged with the file's strings; a writer of anything else, or one out of sight, does not.
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n\n[node name="Box" type="RichTextLabel" parent="."]\nbbcode_enabled = true\n')
const DIALOGUE = JSON.stringify({ intro: [{ speaker: "Ann", text: "Hello [i]there[/i]!", color: "yellow" }], outro: [{ speaker: "Bob", text: "Bye!", color: "aqua" }] })

/** The runtime-code-loading findings of main.gd (the BBCode on line 17), with `more` appended. */
const bbcode = async (...more: ReadonlyArray<string>): Promise<ReadonlyArray<string>> => {
  const text = [
    "extends Node2D",
    "",
    "var conversations = {}",
    "var lines = []",
    "",
    "func _ready():",
    "\tvar f = File.new()",
    '\tf.open("res://data/dialogue.json", File.READ)',
    "\tconversations = parse_json(f.get_as_text())",
    "\tf.close()",
    '\tstart("intro")',
    "",
    "func start(name):",
    "\tlines = conversations[name]",
    "\tvar line = lines[0]",
    "\tvar box = $Box",
    '\tbox.bbcode_text = "[color=%s]%s:[/color] %s" % [line.color, line.speaker, line.text]',
    ...more,
    "",
  ].join("\n")
  const entries = [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(text) }, { path: "res://data/dialogue.json", data: utf8(DIALOGUE) }]
  const report = await scanBytes(writePack({ format: 1, entries }))
  return report.findings.filter((f) => f.message.includes("(policy runtime-code-loading)")).map((f) => `${f.line} ${f.severity}`)
}

describe("a member given lines of the pack's JSON by a key not constant", () => {
  it("keeps them the pack's data: its BBCode is judged with the file's strings (no error)", async () => {
    expect((await bbcode()).filter((f) => f.endsWith("error"))).toEqual([])
  })

  it("is data of no known kind once another writer gives it something else", async () => {
    expect(await bbcode("", "func reset(v):", "\tlines = v")).toContain("17 error")
    expect(await bbcode("", "func take(v):", '\tget_node("/root/Main").lines = [{"text": v}]')).toContain("17 error")
  })
})
