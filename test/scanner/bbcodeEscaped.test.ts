// A fifty-eighth hunt's chat log: names and messages read back from a save, escaped with `[lb]` before they are shown
// as BBCode. Once every `[` of the text starts `[lb]`, no tag can form (3.5 and 4.x show `[lb]` as `[`; 3.2.3, which
// lacks the tag, shows an unknown tag's `[` as text: scene/gui/rich_text_label.cpp), so it is no error; a replacement
// that leaves a `[` of the text, or the escaped text inside a tag, still is.
import { describe, expect, it } from "vitest"
import { lines } from "./fixtures/godotProjects.ts"
import { scan3Files } from "./support/scan.ts"

/** Errors of a script (line 9 on: `body`) reading `player_name` from a save in user://, with `after` as its own functions. */
const errors = async (body: ReadonlyArray<string>, after: ReadonlyArray<string> = []): Promise<ReadonlyArray<string>> =>
  (
    await scan3Files({
      "res://game/chat.gd": lines(
        "extends RichTextLabel",
        "func _ready():",
        "\tvar f := File.new()",
        '\tif f.open("user://profile.json", File.READ) != OK:',
        "\t\treturn",
        "\tvar profile = parse_json(f.get_as_text())",
        "\tf.close()",
        '\tvar player_name = str(profile["name"])',
        ...body,
        "",
        ...after,
      ),
    })
  ).filter((f) => f.includes(" error "))

const ESCAPE = ["func escape_bbcode(text: String) -> String:", '\treturn text.replace("[", "[lb]")']

describe("BBCode of a save's text escaped with [lb]", () => {
  it("is no error, inline or through a helper, in % and + joins", async () => {
    expect(await errors(['\tappend_bbcode("Welcome back, [b]%s[/b]!\\n" % escape_bbcode(player_name))'], ESCAPE)).toEqual([])
    expect(await errors(['\tappend_bbcode("[color=gray]%s[/color] joined\\n" % player_name.replace("[", "[lb]"))'])).toEqual([])
    expect(await errors(['\tbbcode_text = "[i]" + player_name.replace("[", "[lb]") + "[/i]"'])).toEqual([])
  })

  it("is no error after replacements and trims that leave every [ starting [lb] or [rb] (a fifty-ninth hunt's)", async () => {
    for (const escaped of ['player_name.replace("[", "[lb]").replace("]", "[rb]")', 'player_name.replace("[", "[lb]").replace("\\n", " ")', 'player_name.replace("[", "[lb]").strip_edges()', 'player_name.replace("]", "[rb]").replace("[", "[lb]")']) {
      expect(await errors([`\tappend_bbcode("[i]" + ${escaped} + "[/i]")`]), escaped).toEqual([])
    }
  })

  it("stays the error where a later replacement can undo the escape, or the escaped text names a tag (a fifty-ninth red team's)", async () => {
    expect(await errors(['\tappend_bbcode("[i]" + player_name.replace("[", "[lb]").replace("lb]", "") + "[/i]")'])).toContain("res://game/chat.gd:9 error runtime-code-loading")
    expect(await errors(['\tappend_bbcode("[" + player_name.replace("[", "[lb]") + "]Hi")'])).toContain("res://game/chat.gd:9 error runtime-code-loading")
    expect(await errors(["\tvar style = escape_bbcode(player_name)", '\tappend_bbcode("[%s]Hi[/%s]" % [style, style])'], ESCAPE)).toContain("res://game/chat.gd:10 error runtime-code-loading")
  })

  it("stays the error unescaped, escaped in part, or inside a tag", async () => {
    expect(await errors(['\tappend_bbcode("Welcome back, [b]%s[/b]!\\n" % player_name)'])).toContain("res://game/chat.gd:9 error runtime-code-loading")
    expect(await errors(['\tappend_bbcode("[b]%s[/b]" % player_name.replace("[img]", ""))'])).toContain("res://game/chat.gd:9 error runtime-code-loading")
    expect(await errors(['\tappend_bbcode("[b]%s[/b]" % player_name.replace("[", "[[lb]"))'])).toContain("res://game/chat.gd:9 error runtime-code-loading")
    expect(await errors(['\tappend_bbcode("[img]user://%s[/img]" % player_name.replace("[", "[lb]"))'])).toContain("res://game/chat.gd:9 error runtime-code-loading")
  })
})
