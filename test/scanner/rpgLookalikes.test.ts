// A fifty-sixth hunt's RPG (exported and run by godot3-server): an enemy script whose name member starts as "", an
// element colour looked up with `COLORS.get(element, "white")`, and hit points taken off with `-=`. Each is the pack's
// data or a constant, so its BBCode is no error; the same shapes with a resource outside the pack still are.
import { describe, expect, it } from "vitest"
import { lines } from "./fixtures/godotProjects.ts"
import { scan3Files } from "./support/scan.ts"

const ENEMIES = '{"slime": {"name": "Green Slime", "element": "water", "atk": 3}}'

/** Errors of a battle script (line 12 on: `body`) reading res://data/enemies.json into `db`, with `extra` scripts. */
const errors = async (body: ReadonlyArray<string>, extra: Readonly<Record<string, string>> = {}, data = ENEMIES): Promise<ReadonlyArray<string>> =>
  (
    await scan3Files({
      "res://data/enemies.json": data,
      "res://game/battle.gd": lines("extends Node", "var db := {}", "var tip: RichTextLabel", "func _ready():", "\tvar f := File.new()", '\tf.open("res://data/enemies.json", File.READ)', "\tdb = parse_json(f.get_as_text())", "\tf.close()", "\ttip = RichTextLabel.new()", "\tadd_child(tip)", '\tvar d = db["slime"]', ...body),
      ...extra,
    })
  ).filter((f) => f.includes(" error "))

const ENEMY = lines("extends Reference", 'var display_name := ""', "func _init(d: Dictionary):", '\tdisplay_name = d["name"]', "func tooltip() -> String:", '\treturn "[b]%s[/b]" % display_name')

describe("an RPG's enemies", () => {
  it("a member that starts as an empty string and is given the pack's data", async () => {
    expect(await errors(['\ttip.bbcode_text = preload("res://game/enemy.gd").new(d).tooltip()'], { "res://game/enemy.gd": ENEMY })).toEqual([])
    expect(await errors(['\ttip.bbcode_text = preload("res://game/enemy.gd").new(d).tooltip()'], { "res://game/enemy.gd": ENEMY }, ENEMIES.replace("Green Slime", "[img]user://x.tres[/img]"))).toContain("res://game/battle.gd:12 error runtime-code-loading")
  })

  it("a colour of a constant table looked up with get() and a default", async () => {
    const shown = '\ttip.bbcode_text = "[color=%s]%s[/color]" % [COLORS.get(d["element"], "white"), d["name"]]'
    expect(await errors([shown, "const COLORS = {\"water\": \"aqua\", \"fire\": \"red\"}"])).toEqual([])
    expect(await errors([shown.replace('"white"', '"white][img]user://x.tres[/img][color=white"'), "const COLORS = {\"water\": \"aqua\", \"fire\": \"red\"}"])).toContain("res://game/battle.gd:12 error runtime-code-loading")
  })

  it("hit points taken off a party member with -= beside the data's BBCode", async () => {
    const party = ['\tvar party = [{"name": "Aria", "hp": 40}]', '\tparty[0]["hp"] -= d["atk"]', '\ttip.bbcode_text = "[b]%s[/b]" % d["name"]']
    expect(await errors(party)).toEqual([])
    expect(await errors([...party.slice(0, 1), '\td["name"] += "[img]user://x.tres[/img]"', ...party.slice(2)])).toContain("res://game/battle.gd:14 error runtime-code-loading")
  })

  it("a colour of a constant table read by a constant key, by subscript or as a member (a fifty-seventh hunt's)", async () => {
    const table = 'const COLORS = {"water": "aqua", "legendary": "orange"}'
    const shown = (read: string): ReadonlyArray<string> => [`\ttip.bbcode_text = "[color=%s]%s[/color]" % [${read}, d["name"]]`, '\ttip.bbcode_text += "[color=%s]%s[/color]" % [COLORS.get(d["element"], "white"), d["name"]]', table]
    expect(await errors(shown('COLORS["legendary"]'))).toEqual([])
    expect(await errors(shown("COLORS.legendary"))).toEqual([])
    expect(await errors(shown("COLORS.legendary").map((l) => l.replace('"orange"', '"orange][img]user://x.tres[/img][color=orange"')))).toContain("res://game/battle.gd:12 error runtime-code-loading")
  })
})

describe("colours shown as HTML notation", () => {
  const shown = '\ttip.bbcode_text = "[color=#%s]%s[/color]" % [Color(d["tint"]).to_html(false), d["name"]]'
  const TINTED = '{"slime": {"name": "Green Slime", "tint": "44dd44"}}'

  it("Color.to_html() of the pack's data beside its name is hexadecimal digits (a fifty-fourth hunt's)", async () => {
    expect(await errors([shown], {}, TINTED)).toEqual([])
    expect(await errors(["\tvar c: Color = d.get(\"tint\", Color.white)", '\ttip.bbcode_text = "[color=#" + c.to_html() + "]" + d["name"] + "[/color]"'], {}, TINTED)).toEqual([])
  })

  it("stays an error where the name holds a tag, or a class of the pack defines to_html", async () => {
    expect(await errors([shown], {}, TINTED.replace("Green Slime", "[img]user://x.tres[/img]"))).toContain("res://game/battle.gd:12 error runtime-code-loading")
    expect(await errors(['\ttip.bbcode_text = "[img]user://%s.tres[/img]" % Color(d["tint"]).to_html()'], {}, TINTED)).toContain("res://game/battle.gd:12 error runtime-code-loading")
    const own = lines("extends Reference", "var text := \"\"", "func _init(t):", "\ttext = t", "func to_html(alpha := true) -> String:", "\treturn text")
    const viaOwn = '\ttip.bbcode_text = "[b]%s[/b]" % preload("res://game/tint.gd").new(OS.get_environment("TINT")).to_html()'
    expect(await errors([viaOwn], { "res://game/tint.gd": own }, TINTED)).toContain("res://game/battle.gd:12 error runtime-code-loading")
  })
})
