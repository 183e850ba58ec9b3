// Pack or JSON data held by a local whose container another name may write into (evaluate.ts #changedElsewhere,
// red team 21a, attackProjects53.ts) is data read at run time of no known kind, unless what is written is a number, a
// bool, the pack's data again or a translation of its own part (red team 22b's settings menu and dialogue box).
import { describe, expect, it } from "vitest"
import { lines } from "./fixtures/godotProjects.ts"
import { scan3Files } from "./support/scan.ts"

const DIALOGUE = '{"intro": [{"who": "Ann", "text": "DLG_HELLO"}]}'

/** Errors of a pack whose dialogue.gd shows its res://data/dialogue.json's first line as BBCode (after `change`, lines in `_ready` from line 6). */
const shown = async (...change: ReadonlyArray<string>): Promise<ReadonlyArray<string>> =>
  (
    await scan3Files({
      "res://data/dialogue.json": DIALOGUE,
      "res://game/dialogue.gd": lines(
        "extends RichTextLabel",
        "func _ready():",
        "\tvar f = File.new()",
        '\tf.open("res://data/dialogue.json", File.READ)',
        "\tvar dialogue = parse_json(f.get_as_text())",
        ...change.map((c) => `\t${c}`),
        '\tvar first = dialogue["intro"][0]',
        '\tbbcode_text = "[b]" + first["who"] + ":[/b] " + first["text"]',
      ),
    })
  ).filter((f) => f.includes(" error "))

describe("a container of the pack's data written through another name", () => {
  it("stays the pack's data when what is written is a number, a bool or a translation of its own part", async () => {
    expect(await shown()).toEqual([])
    expect(await shown("for line in dialogue[\"intro\"]:", '\tline["text"] = tr(line["text"])')).toEqual([])
    expect(await shown("var copy = dialogue", 'copy["seen"] = true', 'copy["count"] = 2')).toEqual([])
  })

  it("is data read at run time once a string or a value out of sight may be written: the BBCode is then an error", async () => {
    for (const change of [
      ["var copy = dialogue", 'copy["intro"][0]["text"] = "[img]user://x.tres[/img]"'],
      ["for line in dialogue[\"intro\"]:", '\tline["text"] = get_meta("t")'],
      ['var intro = dialogue["intro"]', 'intro.append({"who": "x", "text": get_meta("t")})'],
    ]) {
      // The BBCode line follows the change's lines (from line 6) and `var first`.
      expect(await shown(...change), change.join(" / ")).toContain(`res://game/dialogue.gd:${7 + change.length} error runtime-code-loading`)
    }
  })
})
