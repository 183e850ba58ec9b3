// BBCode built from the pack's data with a part that is one of a few constants (a constant Dictionary of names looked
// up by the data, a conditional between two colours: a forty-ninth and fifty-second hunt's) is judged once for each
// constant (bbcodeTemplate.ts bbcodeTemplates): the ordinary table is no error, and a constant that names a user://
// resource in a tag is one, whichever the data picks.
import { describe, expect, it } from "vitest"
import { lines } from "./fixtures/godotProjects.ts"
import { scan3Files } from "./support/scan.ts"

const DATA = '{"lines": [{"who": "elder", "text": "Welcome, [i]traveller[/i]."}, {"who": "hero", "text": "Hello!"}]}'

/** Errors of a dialogue script whose BBCode line (line 9) is `bbcode`, with `NAMES` the given constant Dictionary. */
const errors = async (names: string, bbcode: string): Promise<ReadonlyArray<string>> =>
  (
    await scan3Files({
      "res://data/dialogue.json": DATA,
      "res://game/dialogue.gd": lines(
        "extends RichTextLabel",
        `const NAMES = ${names}`,
        "func _ready():",
        "\tvar f = File.new()",
        '\tf.open("res://data/dialogue.json", File.READ)',
        "\tvar data = parse_json(f.get_as_text())",
        "\tf.close()",
        '\tfor line in data["lines"]:',
        `\t\t${bbcode}`,
      ),
    })
  ).filter((f) => f.includes(" error "))

describe("BBCode with a part that is one of a few constants", () => {
  it("is no error when every constant is ordinary text or a colour", async () => {
    expect(await errors('{"elder": "Elder Rowan", "hero": "You"}', 'append_bbcode("[b]" + NAMES[line["who"]] + ":[/b] " + line["text"])')).toEqual([])
    expect(await errors('{"elder": "aqua", "hero": "white"}', 'append_bbcode("[color=%s]%s[/color]\\n" % [NAMES[line["who"]], line["text"]])')).toEqual([])
    expect(await errors("{}", 'append_bbcode("[color=%s]%s[/color]" % ["aqua" if line["who"] == "hero" else "white", line["text"]])')).toEqual([])
  })

  it("is the error when one of them loads a resource from outside the pack", async () => {
    expect(await errors('{"elder": "Elder Rowan", "hero": "[img]user://x.tres[/img]"}', 'append_bbcode("[b]" + NAMES[line["who"]] + ":[/b] " + line["text"])')).toContain("res://game/dialogue.gd:9 error runtime-code-loading")
    expect(await errors("{}", 'append_bbcode("[img]%s[/img] %s" % ["res://data/dialogue.json" if line["who"] == "hero" else "user://y.tres", line["text"]])')).toContain("res://game/dialogue.gd:9 error runtime-code-loading")
  })
})
