// Red team 16c's false positives on the pack's own JSON (docs/scanner.md, runtime-code-loading and dynamic-dispatch):
// BBCode built from an autoload's member that holds a res:// JSON, with `item.get("name", "")`, and `connect` on self
// with method names from such a JSON. The look-alikes and attacks godot3-server ran are attackProjects39.ts (fpdata-*);
// these are the shapes, as packs of the test's writer.
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { writeProjectBinary } from "./support/projectBinaryWriter.ts"
import { scanBytes } from "./support/scan.ts"
import { QUEST_HANDLERS } from "./fixtures/attackProjects39.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')
const ITEMS = { items: { sword: { name: "Sword", price: 10, desc: "A [b]sword[/b]." }, key: { name: "Key", price: 5, desc: "A [i]key[/i]." } } }

/** The autoload ItemDB: reads res://data/items.json into `items` in _ready (lines 1-14), `extra` after. */
const itemDb = (...extra: ReadonlyArray<string>): string =>
  [
    "extends Node",
    "var items := {}",
    "",
    "func _ready():",
    "\tvar f = File.new()",
    '\tif f.open("res://data/items.json", File.READ) == OK:',
    "\t\tvar parsed = JSON.parse(f.get_as_text())",
    "\t\tif parsed.error == OK:",
    '\t\t\titems = parsed.result["items"]',
    "\t\tf.close()",
    "",
    "func get_item(id: String) -> Dictionary:",
    "\treturn items.get(id, {})",
    ...extra,
    "",
  ].join("\n")

/** main.gd: `show(id)` gives the label BBCode from `item` (line 8), got by `read`; `extra` lines after. */
const main = (read: string, ...extra: ReadonlyArray<string>): string =>
  [
    "extends EngineGame",
    "onready var desc: RichTextLabel = $Desc",
    "",
    "func _ready():",
    '\tshow("sword")',
    "",
    "func show(id):",
    `\tvar item = ${read}`,
    '\tdesc.bbcode_text = "[u]%s[/u]\\n%s\\nPrice: %d" % [item.get("name", ""), item.get("desc", ""), item.get("price", 0)]',
    ...extra,
    "",
  ].join("\n")

/** `file:line severity` of the errors and warnings of a Godot 3 pack of those scripts, ItemDB an autoload. */
const scanned = async (files: Readonly<Record<string, string>>, data: unknown = ITEMS): Promise<ReadonlyArray<string>> => {
  const scripts = Object.entries(files).map(([path, text]) => ({ path, data: utf8(text) }))
  const project = { path: "res://project.binary", data: writeProjectBinary([["application/config/name", "G"], ["autoload/ItemDB", "*res://game/item_db.gd"]]) }
  const entries = [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, project, { path: "res://data/items.json", data: utf8(JSON.stringify(data)) }, ...scripts]
  const report = await scanBytes(writePack({ format: 1, entries }))
  return report.findings.filter((f) => f.rule !== "entry-scene-not-engine-game").map((f) => `${f.file}:${f.line ?? ""} ${f.severity} ${/\(policy ([a-z0-9-]+)\)/.exec(f.message)?.[1] ?? f.pattern}`)
}

const pack = (read: string, db: string = itemDb(), ...extra: ReadonlyArray<string>): Readonly<Record<string, string>> => ({ "res://game/main.gd": main(read, ...extra), "res://game/item_db.gd": db })

describe("BBCode from an autoload's member holding the pack's JSON", () => {
  it("the red team's inventory (a getter, the member itself): judged by the JSON's strings", async () => {
    for (const read of ["ItemDB.get_item(id)", "ItemDB.items[id]", "ItemDB.items.get(id, {})"]) expect(await scanned(pack(read)), read).toEqual([])
  })
})

describe("BBCode from an autoload's member: what keeps the error", () => {
  const errors = async (files: Readonly<Record<string, string>>, data: unknown = ITEMS): Promise<ReadonlyArray<string>> => (await scanned(files, data)).filter((f) => f.includes(" error "))
  it("the JSON of the pack holds a [font] or [img] path outside the pack", async () => {
    const evil = { items: { sword: { name: "Sword", price: 1, desc: "[font=/tmp/evil.tres]x[/font]" } } }
    for (const read of ["ItemDB.get_item(id)", "ItemDB.items[id]"]) expect(await errors(pack(read), evil), read).toEqual(["res://game/main.gd:9 error runtime-code-loading"])
  })

  it("a default of get() that is a tag loading a path outside the pack", async () => {
    const files = { "res://game/main.gd": main("ItemDB.items[id]").replace('item.get("name", "")', 'item.get("name", "[img]user://x.png[/img]")'), "res://game/item_db.gd": itemDb() }
    expect(await errors(files)).toEqual(["res://game/main.gd:9 error runtime-code-loading"])
  })

  it("another script writes the member, or into it", async () => {
    const writes = [
      'ItemDB.items = parse_json(File.new().get_as_text())',
      'ItemDB.items["sword"] = {"desc": "[font=/tmp/evil.tres]x[/font]"}',
      'ItemDB.items.sword = {"desc": "[font=/tmp/evil.tres]x[/font]"}',
      'ItemDB.items.merge({"axe": {"desc": "[font=/tmp/evil.tres]x[/font]"}})',
      'ItemDB.set("items", {"axe": {"desc": "[font=/tmp/evil.tres]x[/font]"}})',
      'ItemDB.items["sword"]["desc"] = "[font=/tmp/evil.tres]x[/font]"',
    ]
    for (const w of writes) {
      const files = pack("ItemDB.items[id]", itemDb(), "", "func _enter_tree():", `\t${w}`)
      expect(await errors(files), w).toContain("res://game/main.gd:9 error runtime-code-loading")
    }
  })
})

describe("BBCode from a member holding the pack's JSON: its own class", () => {
  const errors = async (files: Readonly<Record<string, string>>): Promise<ReadonlyArray<string>> => (await scanned(files)).filter((f) => f.includes(" error "))
  const own = (...extra: ReadonlyArray<string>): Readonly<Record<string, string>> => ({
    "res://game/main.gd": ["extends EngineGame", "func _ready():", "\tpass", ""].join("\n"),
    "res://game/item_db.gd": itemDb("", "var desc: RichTextLabel = RichTextLabel.new()", "func show(id):", "\tvar item = items[id]", '\tdesc.bbcode_text = "[u]%s[/u] %s" % [item.get("name", ""), item.get("desc", "")]', ...extra),
  })
  it("untyped or typed, with get() defaults: judged by the JSON's strings", async () => {
    expect(await errors(own())).toEqual([])
    const untyped = own()
    expect(await errors({ ...untyped, "res://game/item_db.gd": (untyped["res://game/item_db.gd"] ?? "").replace("var items := {}", "var items = {}") })).toEqual([])
  })

  it("a write into the data, in the class or elsewhere, or another value given the member keeps the error", async () => {
    const writes = [
      'func add():\n\titems["axe"] = {"desc": "[font=/tmp/evil.tres]x[/font]"}',
      'func add():\n\tvar it = items["sword"]\n\tit["desc"] = "[font=/tmp/evil.tres]x[/font]"',
      'func add():\n\titems = {"axe": {"desc": "[font=/tmp/evil.tres]x[/font]"}}',
      'func add():\n\titems += [{"desc": "[font=/tmp/evil.tres]x[/font]"}]',
    ]
    for (const w of writes) expect(await errors(own(w)), w).toEqual(["res://game/item_db.gd:18 error runtime-code-loading"])
    const elsewhere = ['ItemDB.get_item("sword")["desc"] = "[font=/tmp/evil.tres]x[/font]"', 'for it in ItemDB.items.values():\n\t\tit.desc = "[font=/tmp/evil.tres]x[/font]"', 'ItemDB.items = {"axe": {"desc": "[font=/tmp/evil.tres]x[/font]"}}']
    for (const w of elsewhere) {
      const files = { ...own(), "res://game/main.gd": ["extends EngineGame", "func _ready():", `\t${w}`, ""].join("\n") }
      expect(await errors(files), w).toEqual(["res://game/item_db.gd:18 error runtime-code-loading"])
    }
  })
})

describe("connect on self by method names from the pack's JSON", () => {
  const QUESTS = [
    { id: "q1", on: "gem_collected", check: "_check_gems", goal: 3, reward: "unlock_level", reward_arg: "cave" },
    { id: "q2", on: "enemy_killed", check: "_check_kills", goal: 1, reward: "add_coins", reward_arg: 50 },
  ]
  /** The red team's quests (g9_quests): `connect(q.on, <target>, q.check, [q])` at line 12. */
  const quests = (target = "self", extra: ReadonlyArray<string> = []): string =>
    [
      "extends EngineGame",
      "signal gem_collected",
      "signal enemy_killed",
      "var quests := []",
      "var progress := {}",
      "",
      "func _ready():",
      "\tvar f := File.new()",
      '\tf.open("res://data/items.json", File.READ)',
      "\tquests = parse_json(f.get_as_text())",
      "\tfor q in quests:",
      `\t\tconnect(q.on, ${target}, q.check, [q])`,
      '\temit_signal("gem_collected")',
      ...QUEST_HANDLERS,
      "",
      "func unlock_level(name):",
      "\tprint(name)",
      "",
      "func add_coins(n):",
      "\tprint(n)",
      ...extra,
      "",
    ].join("\n")
  /** The errors in main.gd (the pack's project.binary names the autoload ItemDB, which these packs lack). */
  const errors = async (source: string, data: unknown = QUESTS): Promise<ReadonlyArray<string>> => (await scanned({ "res://game/main.gd": source }, data)).filter((f) => f.startsWith("res://game/main.gd:") && f.includes(" error "))

  it("each name the JSON gives is a method the script defines: no error", async () => {
    expect(await errors(quests())).toEqual([])
  })

  it("a name of an engine method, a value that is not a string, another target, or a name from elsewhere keeps the error", async () => {
    for (const check of ["set_script", "call", "queue_free", "execute", "_check_nothing"]) {
      expect(await errors(quests(), [QUESTS[0], { ...QUESTS[1], check }]), check).toEqual(["res://game/main.gd:12 error dynamic-dispatch"])
    }
    expect(await errors(quests(), [QUESTS[0], { ...QUESTS[1], check: 7 }])).toEqual(["res://game/main.gd:12 error dynamic-dispatch"])
    expect(await errors(quests("get_parent()"))).toEqual(["res://game/main.gd:12 error dynamic-dispatch"])
    const user = quests().replace("res://data/items.json", "user://quests.json")
    expect(await errors(user)).toContain("res://game/main.gd:12 error dynamic-dispatch")
    // Another script gives the member other quests by its name.
    const other = ["extends Node", "func _ready():", '\tget_node("/root/Main").set("quests", [{"on": "gem_collected", "check": "set_script"}])', ""].join("\n")
    const files = { "res://game/main.gd": quests(), "res://game/item_db.gd": other }
    expect((await scanned(files, QUESTS)).filter((f) => f.includes(" error "))).toContain("res://game/main.gd:12 error dynamic-dispatch")
  })
})
