// A dialogue line built up in a local with a helper's BBCode (`text += " " + _item_bbcode(id)`), then shown joined with
// another helper's (`_speaker_bbcode(id) + ": " + text`: a fifty-fourth hunt's dialogue box). The helpers' templates are
// followed inside the pieces and a join of the local with more is the pieces of each part: no error for the ordinary
// box; a part that leaves a tag open for the data, or a helper naming a user:// resource, is still the error.
import { describe, expect, it } from "vitest"
import { lines } from "./fixtures/godotProjects.ts"
import { scan3Files } from "./support/scan.ts"

const DATA = '{"speakers": {"elder": {"name": "Elder", "color": "aqua"}}, "items": {"key": {"name": "Old key"}}, "intro": [{"speaker": "elder", "text": "Take this.", "item": "key"}]}'

/** Errors of a dialogue box whose line (line 18) is shown as `shown`, with `itemTag` the item helper's format. */
const errors = async (shown: string, itemTag = '"[color=#4d99ff]%s[/color]"'): Promise<ReadonlyArray<string>> =>
  (
    await scan3Files({
      "res://data/dialogue.json": DATA,
      "res://game/box.gd": lines(
        "extends RichTextLabel",
        "var _data := {}",
        "func _ready():",
        "\tvar f := File.new()",
        '\tf.open("res://data/dialogue.json", File.READ)',
        "\t_data = parse_json(f.get_as_text())",
        "\tf.close()",
        '\tfor line in _data["intro"]:',
        "\t\tshow_line(line)",
        "func _speaker_bbcode(id: String) -> String:",
        '\tvar sp = _data["speakers"][id]',
        '\treturn "[color=%s][b]%s[/b][/color]" % [sp["color"], sp["name"]]',
        "func _item_bbcode(id: String) -> String:",
        `\treturn ${itemTag} % _data["items"][id]["name"]`,
        "func show_line(line: Dictionary) -> void:",
        '\tvar text: String = line["text"]',
        '\ttext += " " + _item_bbcode(line["item"])',
        `\t${shown}`,
      ),
    })
  ).filter((f) => f.includes(" error "))

describe("BBCode of a local built with helpers' pieces", () => {
  it("is no error shown alone or joined with another helper's BBCode", async () => {
    expect(await errors("bbcode_text = text")).toEqual([])
    expect(await errors('bbcode_text = _speaker_bbcode(line["speaker"]) + ": " + text')).toEqual([])
  })

  it("is the error when a part leaves a tag open for the data, or a helper names a resource outside the pack", async () => {
    expect(await errors('bbcode_text = "[img]" + text')).toContain("res://game/box.gd:18 error runtime-code-loading")
    expect(await errors("bbcode_text = text", '"[img]user://x.tres[/img]%s"')).toContain("res://game/box.gd:18 error runtime-code-loading")
  })
})

const TOWERS = '{"arrow": {"name": "Arrow", "color": "lime", "desc": "Shoots [i]fast[/i].", "damage": 3}}'

/** Errors of a tower-defence HUD (line 11 on) whose tooltip is `bbcode`, with `helpers` after it. */
const hudErrors = async (bbcode: ReadonlyArray<string>, helpers: ReadonlyArray<string>): Promise<ReadonlyArray<string>> =>
  (
    await scan3Files({
      "res://data/towers.json": TOWERS,
      "res://game/hud.gd": lines(
        "extends Node",
        "var data := {}",
        "var tip: RichTextLabel",
        "func _ready():",
        "\tvar f := File.new()",
        '\tf.open("res://data/towers.json", File.READ)',
        "\tdata = parse_json(f.get_as_text())",
        "\tf.close()",
        "\ttip = RichTextLabel.new()",
        "\tadd_child(tip)",
        ...bbcode,
        ...helpers,
      ),
    })
  ).filter((f) => f.includes(" error "))

const TOOLTIP = ["func tower_tooltip(t: Dictionary) -> String:", '\tvar s := "[color=%s][b]%s[/b][/color]\\n" % [t["color"], t["name"]]', '\ts += t["desc"] + "\\n"', '\ts += "Damage: %d" % t["damage"]', "\treturn s"]
const LOG = ["func log_line(s: String) -> void:", '\ttip.append_bbcode(s + "\\n")']

describe("BBCode a helper builds in a local, or a log helper's parameter", () => {
  it("is no error when each piece is a constant or the pack's data", async () => {
    expect(await hudErrors(['\ttip.bbcode_text = tower_tooltip(data["arrow"])'], TOOLTIP)).toEqual([])
    expect(await hudErrors(['\tlog_line("You build [b]%s[/b]." % data["arrow"]["name"])', '\tlog_line("It deals %d." % data["arrow"]["damage"])'], LOG)).toEqual([])
  })

  it("is the error when a piece leaves a tag open or a caller passes a resource outside the pack", async () => {
    expect(await hudErrors(['\ttip.bbcode_text = tower_tooltip(data["arrow"])'], [...TOOLTIP.slice(0, -1), '\ts += "[img]"', "\treturn s"])).toContain("res://game/hud.gd:11 error runtime-code-loading")
    expect(await hudErrors(['\tlog_line("You build [b]%s[/b]." % data["arrow"]["name"])', '\tlog_line("[img]user://x.tres[/img]")'], LOG)).toContain("res://game/hud.gd:14 error runtime-code-loading")
  })
})
