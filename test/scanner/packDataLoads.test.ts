// Load paths read from the pack's own data files (docs/scanner.md, runtime-code-loading): judged with the strings of
// those files that can reach the load, as the analysis follows the subscripts. The Godot 3 look-alike and the attacks
// godot3-server ran are attackProjects35.ts; these are the shapes, as packs of the test's writer.
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')
const SCENE4 = utf8('[gd_scene load_steps=2 format=3]\n[ext_resource type="Script" path="res://game/main.gd" id="1"]\n[node name="Main" type="Node2D"]\nscript = ExtResource("1")\n')
const ITEMS = { potion: { name: "Potion", icon: "res://icons/potion.png", heal: 20 }, key: { name: "Key", icon: "res://icons/key.png" } }

/** Statements (one a line, at one tab) in `_ready` of a script that reads `res://data/items.json` into `items` (line 7 on). */
const reading = (...body: ReadonlyArray<string>): string =>
  ["extends EngineGame", "", "var items = {}", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/items.json", File.READ)', "\titems = parse_json(f.get_as_text())", ...body.map((l) => `\t${l}`), ""].join("\n")

/** The runtime-code-loading findings of a Godot 3 pack of `main.gd`, the data files and two icons, as `line severity` and the note. */
const loads = async (source: string, data: Readonly<Record<string, string | Uint8Array>> = { "res://data/items.json": JSON.stringify(ITEMS) }, format = 1): Promise<ReadonlyArray<string>> => {
  const files = Object.entries(data).map(([path, d]) => ({ path, data: typeof d === "string" ? utf8(d) : d }))
  const icons = ["res://icons/potion.png", "res://icons/key.png"].map((path) => ({ path, data: utf8("png") }))
  const report = await scanBytes(writePack({ format, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: format === 1 ? SCENE : SCENE4 }, { path: "res://game/main.gd", data: utf8(source) }, ...icons, ...files] }))
  return report.findings.filter((f) => f.message.includes("(policy runtime-code-loading)")).map((f) => `${f.line ?? ""} ${f.severity} ${/Flagged because (.*?)\. Load only|Flagged because (.*?)\. Keep only/.exec(f.message)?.slice(1).find((x) => x !== undefined) ?? f.message}`)
}

const severities = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.map((f) => f.split(" ").slice(0, 2).join(" "))

describe("load paths from the pack's own JSON", () => {
  it("the red team's inventory: the strings that reach the load are textures of the pack, a warning naming them", async () => {
    const found = await loads(reading("for id in items:", "\tvar item = items[id]", '\tvar icon = load(item["icon"])'))
    expect(found).toEqual(['11 warning the path comes from res://data/items.json, read at run time; every string of it that can reach here names a file of the pack ("res://icons/potion.png", "res://icons/key.png"); check in context what the data can name'])
  })

  it("is followed through member access, get() with a default, values(), front(), keys of a loop and 3.x JSON.parse", async () => {
    const shapes = [
      "load(items[id].icon)",
      'load(items[id].get("icon", "res://icons/key.png"))',
      'load(items.values().front()["icon"])',
      'ResourceLoader.load(items["key"]["icon"])',
    ]
    for (const shape of shapes) expect(severities(await loads(reading("for id in items:", `\tvar r = ${shape}`))), shape).toEqual(["10 warning"])
    const parsed = ["extends EngineGame", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/items.json", File.READ)', "\tvar r = JSON.parse(f.get_as_text())", "\tfor item in r.result.values():", '\t\tload(item["icon"])', ""].join("\n")
    expect(severities(await loads(parsed))).toEqual(["8 warning"])
  })

  it("a file named at run time under a folder of the pack: the warning asks to check the name", async () => {
    const source = ["extends EngineGame", "", "func show(name):", "\tvar f = File.new()", '\tf.open("res://data/%s.json" % name, File.READ)', "\tvar items = parse_json(f.get_as_text())", "\tfor id in items:", '\t\tload(items[id]["icon"])', ""].join("\n")
    const found = await loads(source, { "res://data/items.json": JSON.stringify(ITEMS), "res://data/more.json": JSON.stringify({ gem: { icon: "res://icons/key.png" } }) })
    expect(severities(found)).toEqual(["8 warning"])
    expect(found[0]).toContain("the path comes from res://data/*, read at run time")
    expect(found[0]).toContain("the file is named at run time under res://data/, check that the name stays inside")
    const evil = await loads(source, { "res://data/items.json": JSON.stringify(ITEMS), "res://data/more.json": JSON.stringify({ gem: { icon: "user://gem.tres" } }) })
    expect(severities(evil)).toEqual(["8 error"])
  })

  it("a File opened on another file only after the read still gave the pack's file; before it, or in a loop around the read, it did not", async () => {
    const use = ["for id in items:", '\tload(items[id]["icon"])']
    const after = await loads(reading('f.open("user://progress.json", File.READ)', "var saved = f.get_as_text()", ...use))
    expect(severities(after)).toEqual(["12 warning"])
    const readingAt = (...lines: ReadonlyArray<string>): string => ["extends EngineGame", "", "var items = {}", "", "func _ready():", "\tvar f = File.new()", ...lines.map((l) => `\t${l}`), ...use.map((l) => `\t${l}`), ""].join("\n")
    const before = readingAt('f.open("res://data/items.json", File.READ)', 'f.open("user://progress.json", File.READ)', "items = parse_json(f.get_as_text())")
    expect(severities(await loads(before))).toEqual(["11 error"])
    const looped = readingAt("for p in [\"res://data/items.json\", \"user://progress.json\"]:", "\tif p.begins_with(\"res://\"):", "\t\tf.open(p, File.READ)", "\titems = parse_json(f.get_as_text())", '\tf.open("user://progress.json", File.READ)')
    expect(severities(await loads(looped))).toEqual(["13 error"])
  })

  it("a write into the variable holding the data, or a default of get(), is judged too", async () => {
    for (const write of ['items["more"] = {"icon": "user://x.tres"}', 'items["key"]["icon"] = "user://x.tres"', 'items.key.icon = "user://x.tres"', 'items.merge({"more": {"icon": "user://x.tres"}})']) {
      expect(severities(await loads(reading(write, "for id in items:", '\tload(items[id]["icon"])'))), write).toEqual(["11 error"])
    }
    expect(severities(await loads(reading("for id in items:", '\tload(items[id].get("icon", "user://x.tres"))')))).toEqual(["10 error"])
    expect(severities(await loads(reading("for id in items:", '\tload(items[id].get("icon", "res://icons/key.png"))')))).toEqual(["10 warning"])
    // A copy of parse_json's data holds the same strings.
    const copy = ["extends EngineGame", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/items.json", File.READ)', "\tvar items = parse_json(f.get_as_text())", '\tload(items.duplicate()["key"]["icon"])', ""].join("\n")
    expect(severities(await loads(copy))).toEqual(["7 warning"])
  })

  it("Godot 4: FileAccess and JSON.parse_string", async () => {
    const source = ["extends EngineGame", "", "func _ready():", '\tvar items = JSON.parse_string(FileAccess.get_file_as_string("res://data/items.json"))', "\tfor id in items:", '\t\tvar icon = load(items[id]["icon"])', ""].join("\n")
    expect(severities(await loads(source, undefined, 2))).toEqual(["6 warning"])
  })

  it("a string of the data that does not reach the load does not count", async () => {
    const data = { "res://data/items.json": JSON.stringify({ key: { name: "user://not-a-path", icon: "res://icons/key.png", save: "/tmp/x.tres" } }) }
    expect(severities(await loads(reading("for id in items:", '\tload(items[id]["icon"])'), data))).toEqual(["10 warning"])
  })

  it("a string that can reach it outside the pack, untidy, or a path the pack lacks is an error naming it", async () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["user://x.tres", '"user://x.tres", is a path outside the pack'],
      ["/tmp/x.tres", '"/tmp/x.tres", is a path outside the pack'],
      ["res://../x.tres", '"res://../x.tres", is a path outside the pack'],
      ["C:/x.tres", '"C:/x.tres", is a path outside the pack'],
      ["res://./icons/key.png", "the engine looks up \"res://./icons/key.png\" as written"],
      ["res://icons/gone.png", "names res://icons/gone.png, which is not in the pack"],
      // load() makes a relative path res://x: only a file of the pack is fine.
      ["x.tres", "names res://x.tres, which is not in the pack"],
    ]
    for (const [icon, why] of cases) {
      const data = { "res://data/items.json": JSON.stringify({ key: { name: "Key", icon: "res://icons/key.png" }, evil: { icon } }) }
      const found = await loads(reading("for id in items:", '\tload(items[id]["icon"])'), data)
      expect(found, icon).toHaveLength(1)
      expect(found[0], icon).toMatch(/^10 error the path comes from data read at run time \(res:\/\/data\/items\.json\): a string of the data that can reach it, /)
      expect(found[0], icon).toContain(why)
    }
    // A relative path of the pack is the pack's file.
    const relative = { "res://data/items.json": JSON.stringify({ key: { icon: "icons/key.png" } }) }
    expect(severities(await loads(reading("for id in items:", '\tload(items[id]["icon"])'), relative))).toEqual(["10 warning"])
    // A whole "" loads nothing (as a constant "" does): an optional field left empty.
    const empty = { "res://data/items.json": JSON.stringify({ key: { icon: "res://icons/key.png" }, plain: { icon: "" } }) }
    expect(severities(await loads(reading("for id in items:", '\tload(items[id]["icon"])'), empty))).toEqual(["10 warning"])
  })

  it("keys, elements and characters reach a subscript that is not one constant string", async () => {
    // The key "user://k" reaches a loop over the items (a loop gives keys of a Dictionary).
    const data = { "res://data/items.json": JSON.stringify({ "user://k": { icon: "res://icons/key.png" } }) }
    expect(severities(await loads(reading("for id in items:", "\tload(id)"), data))).toEqual(["10 error"])
    // Godot 3's load() refuses what is not a String (the Dictionaries the loop also gives); ResourceLoader.load turns it into text.
    const keys = { "res://data/items.json": JSON.stringify({ "res://icons/key.png": { heal: 1 } }) }
    expect(severities(await loads(reading("for id in items:", "\tload(id)"), keys))).toEqual(["10 warning"])
    expect(severities(await loads(reading("for id in items:", "\tResourceLoader.load(id)"), keys))).toEqual(["10 error"])
  })

  it("data from elsewhere, a file the pack lacks, or data the analysis does not follow keeps the error", async () => {
    const error = ["10 error the path comes from data read at run time"]
    const user = ["extends EngineGame", "", "var items = {}", "", "func _ready():", "\tvar f = File.new()", '\tf.open("user://items.json", File.READ)', "\titems = parse_json(f.get_as_text())", "\tfor id in items:", '\t\tload(items[id]["icon"])', ""].join("\n")
    expect(await loads(user)).toEqual(error)
    const missing = reading("for id in items:", '\tload(items[id]["icon"])').replace("res://data/items.json", "res://data/gone.json")
    expect(await loads(missing)).toEqual(error)
    // Also read from user://: either file's data may reach it.
    const either = reading('f.open("user://items.json", File.READ)', "items = parse_json(f.get_as_text())", "for id in items:", '\tload(items[id]["icon"])')
    expect(await loads(either)).toEqual(["12 error the path comes from data read at run time"])
    // Changed on the way (str() shows the data's strings as they are: judged with them).
    expect(await loads(reading("for id in items:", '\tload(items[id]["icon"] + ".tres")'))).toEqual(error)
    expect(severities(await loads(reading("for id in items:", '\tload(str(items[id]["icon"]))')))).toEqual(["10 warning"])
    // A line of a CSV file is not followed.
    const csv = ["extends EngineGame", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/items.json", File.READ)', "\tload(f.get_csv_line()[1])", ""].join("\n")
    expect(await loads(csv)).toEqual(["6 error the path comes from data read at run time"])
  })

  it("a data file the engine may read otherwise than the scanner keeps the error", async () => {
    const body = reading("for id in items:", '\tload(items[id]["icon"])')
    const nul = await loads(body, { "res://data/items.json": new Uint8Array([...utf8(JSON.stringify(ITEMS)), 0, ...utf8('{"x": {"icon": "user://x.tres"}}')]) })
    expect(nul).toEqual(["10 error the path comes from data read at run time (res://data/items.json): res://data/items.json holds a NUL byte, after which the engine reads text the scanner does not"])
    const broken = await loads(body, { "res://data/items.json": "{'key': 1}" })
    expect(broken[0]).toContain("is not JSON the scanner can read")
  })

  it("the whole text or a line of a file is judged as it is", async () => {
    const text = (read: string): string => ["extends EngineGame", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/level.txt", File.READ)', `\tload(${read})`, ""].join("\n")
    expect(severities(await loads(text("f.get_line()"), { "res://data/level.txt": "res://icons/key.png\nres://icons/potion.png\r\n" }))).toEqual(["6 error"])
    expect(severities(await loads(text("f.get_line()"), { "res://data/level.txt": "res://icons/key.png\nres://icons/potion.png" }))).toEqual(["6 warning"])
    expect(severities(await loads(text("f.get_as_text()"), { "res://data/level.txt": "res://icons/key.png" }))).toEqual(["6 warning"])
    expect(severities(await loads(text("f.get_as_text()"), { "res://data/level.txt": "res://icons/key.png\n" }))).toEqual(["6 error"])
  })
})

describe("BBCode from the pack's data files, read as the engine reads them", () => {
  // A thirty-fifth hunt's dialogue box: the speaker's tag built by a helper of the script from the line's fields.
  it("a helper's returned BBCode is judged with what its calls pass: the data's strings", async () => {
    const source = (data: string): Promise<ReadonlyArray<string>> => {
      const text = [
        "extends EngineGame",
        "",
        "func speaker_tag(speaker: String, color: String) -> String:",
        '\treturn "[color=%s]%s:[/color] " % [color, speaker]',
        "",
        "func _ready():",
        "\tvar f = File.new()",
        '\tf.open("res://data/lines.json", File.READ)',
        "\tvar line = parse_json(f.get_as_text())",
        "\tvar box = RichTextLabel.new()",
        '\tbox.bbcode_text = speaker_tag(line["speaker"], line.get("color", "#ffffff")) + line["text"]',
        "",
      ].join("\n")
      return loads(text, { "res://data/lines.json": data })
    }
    expect(severities(await source('{"speaker": "Ann", "color": "#ff0000", "text": "Hello [b]there[/b]"}'))).toEqual([])
    expect(severities(await source('{"speaker": "[img]user://x.tres[/img]", "text": "Hi"}'))).toEqual(["11 error"])
  })

  // A forty-fourth red team's, run by godot3-server: get_csv_line reads on over line ends while a quote is open, removing
  // the quotes, so `[fo"n"t=user://a,b.tres]` is the field `[font=user://a,b.tres]`; a forty-sixth's `[im;g]…` read with
  // ";" joined two fields into a tag: a delimiter other than "," makes the fields data read at run time.
  it("CSV fields are judged with their quotes read as get_csv_line reads them; another delimiter is data read at run time", async () => {
    const source = (read: string, field: number): string =>
      ["extends EngineGame", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/rows.csv", File.READ)', `\tvar row = f.${read}`, "\tvar l = RichTextLabel.new()", `\tl.bbcode_text = row[${field}]`, ""].join("\n")
    expect(severities(await loads(source('get_csv_line(";")', 0), { "res://data/rows.csv": '[fo"n"t=user://a,b.tres]Hi[/font];Hello\n' }))).toEqual(["8 error"])
    expect(severities(await loads(source("get_csv_line()", 1), { "res://data/rows.csv": 'x,"\n[fo"n"t=user://a,b.tres]Hi[/font]"\n' }))).toEqual(["8 error"])
    expect(severities(await loads(source("get_csv_line()", 0), { "res://data/rows.csv": '"[b]Hi[/b]",Hello\n' })).filter((f) => f.endsWith("error"))).toEqual([])
    expect(severities(await loads(source('get_csv_line(";")', 0), { "res://data/rows.csv": '"[b]Hi[/b]";Hello\n' }))).toEqual(["8 error"])
  })

  // 3.2.3's File.get_line ends a line at a NUL byte and goes on reading (core/os/file_access.cpp, FileAccess::get_line;
  // tried in godot3-server: bytes `A\0B\nC\rD` give the lines "A", "B", "CD"), where the scanner's decoder stops.
  it("a data file holding a NUL byte keeps the error", async () => {
    const source = ["extends EngineGame", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/intro.txt", File.READ)', "\tvar l = RichTextLabel.new()", "\tl.bbcode_text = f.get_line()", ""].join("\n")
    expect(severities(await loads(source, { "res://data/intro.txt": "Hello [b]there[/b]" }))).toEqual([])
    const nul = await loads(source, { "res://data/intro.txt": new Uint8Array([...utf8("Hello"), 0, ...utf8("[img]user://x.tres[/img]")]) })
    expect(severities(nul)).toEqual(["7 error"])
    expect(nul[0]).toContain("the BBCode comes from data read at run time: res://data/intro.txt holds a NUL byte, after which the engine reads text the scanner does not")
  })
})

describe("the lines of a pack file split at \"\\n\" (pckgate-scanner/18, a forty-second hunt's story script)", () => {
  const source = (split: string, element = "lines[1]"): string =>
    ["extends EngineGame", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/story.txt", File.READ)', `\tvar lines = f.get_as_text().${split}`, "\tvar l = RichTextLabel.new()", `\tl.bbcode_text = ${element}`, ""].join("\n")
  const story = (second: string): Readonly<Record<string, string>> => ({ "res://data/story.txt": `The [i]night[/i] was calm.\n${second}\n` })

  it("an element is a line, judged as get_line()'s are: its tags", async () => {
    expect(severities(await loads(source('split("\\n", false)'), story("A [b]light[/b] turned.")))).toEqual([])
    expect(severities(await loads(source('split("\\n")'), story("[img]user://x.tres[/img]")))).toEqual(["8 error"])
    // Lines joined again can make a tag no line holds alone.
    const halves = { "res://data/story.txt": "Look: [im\ng]user://x.tres[/img]\n" }
    expect(severities(await loads(source('split("\\n")', "lines[0]"), halves))).toEqual([])
    expect(severities(await loads(source('split("\\n")', "lines[0] + lines[1]"), halves))).toEqual(["8 error"])
  })

  it("kept in a member made empty by its constructor, or copied with Array(), it is still the file's lines", async () => {
    const member = (start: string, keep: string, data: string): Promise<ReadonlyArray<string>> =>
      loads(
        ["extends EngineGame", "", `var lines := ${start}`, "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/story.txt", File.READ)', `\tlines = ${keep}`, "\tvar l = RichTextLabel.new()", "\tl.bbcode_text = lines[0]", ""].join("\n"),
        { "res://data/story.txt": `${data}\n` },
      )
    expect(severities(await member("PoolStringArray()", 'f.get_as_text().split("\\n", false)', "A [b]light[/b] turned."))).toEqual([])
    expect(severities(await member("[]", 'Array(f.get_as_text().split("\\n", false))', "A [b]light[/b] turned."))).toEqual([])
    expect(severities(await member("PoolStringArray()", 'f.get_as_text().split("\\n", false)', "[img]user://x.tres[/img]"))).toEqual(["10 error"])
    expect(severities(await member("[]", 'Array(f.get_as_text().split("\\n", false))', "[img]user://x.tres[/img]"))).toEqual(["10 error"])
  })

  // A forty-third red team's: what the script puts into the file's lines (or its parsed JSON) was judged with the file's
  // strings only, so a literal tag, or two halves joined, written into an element passed.
  it("written into, the lines are no longer only the file's: data read at run time", async () => {
    const halves = { "res://data/story.txt": "[im\ng]user://x.tres[/img]\n" }
    const written = (...body: ReadonlyArray<string>): string =>
      ["extends EngineGame", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/story.txt", File.READ)', '\tvar lines = f.get_as_text().split("\\n")', "\tvar l = RichTextLabel.new()", ...body.map((b) => `\t${b}`), ""].join("\n")
    expect(severities(await loads(written('lines[0] = "[img]user://x.tres[/img]"', "l.bbcode_text = lines[0]"), story("Hello")))).toEqual(["9 error"])
    expect(severities(await loads(written("lines[0] = lines[0] + lines[1]", "l.bbcode_text = lines[0]"), halves))).toEqual(["9 error"])
    expect(severities(await loads(written("lines.append(lines[0] + lines[1])", "l.bbcode_text = lines[2]"), halves))).toEqual(["9 error"])
    expect(severities(await loads(written("var joined = lines[0] + lines[1]", "l.bbcode_text = joined"), halves))).toEqual(["9 error"])
  })

  // A forty-fourth hunt's: `f.get_line().strip_edges()` in BBCode, judged among the file's strings with their edges
  // stripped. Another part (`substr`, `left`) may end in a tag left open (`[im` of `[img]`: a forty-sixth red team's),
  // and strip_escapes drops characters, which can join a tag: both stay data read at run time.
  it("a line with its edges stripped is still the file's for BBCode; substr and strip_escapes are not", async () => {
    const part = (op: string, data: string): Promise<ReadonlyArray<string>> =>
      loads(["extends EngineGame", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/story.txt", File.READ)', "\tvar l = RichTextLabel.new()", `\tl.bbcode_text = f.get_line().${op}`, ""].join("\n"), { "res://data/story.txt": data })
    expect(severities(await part("strip_edges()", "  Welcome to the [b]cave[/b].  \n"))).toEqual([])
    expect(severities(await part("substr(2)", "  Welcome to the [b]cave[/b].\n"))).toEqual(["7 error"])
    // Stripped, a piece after a tag's first half closes it: "[im" + "g]…" (the strings include the stripped lines).
    const joined = ["extends EngineGame", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/story.txt", File.READ)', "\tvar a = f.get_line()", "\tvar b = f.get_line().strip_edges()", "\tvar l = RichTextLabel.new()", "\tl.bbcode_text = a + b", ""].join("\n")
    expect(severities(await loads(joined, { "res://data/story.txt": "Look [im\n  g]user://x.tres[/img]\n" }))).toEqual(["9 error"])
    expect(severities(await part("strip_edges()", "  [img]user://x.tres[/img]\n"))).toEqual(["7 error"])
    expect(severities(await part("strip_escapes()", "Look [im\tg]user://x.tres[/img]\n"))).toEqual(["7 error"])
  })

  it("another separator, or a maxsplit whose last element keeps the rest of the text, is data read at run time", async () => {
    expect(severities(await loads(source('split(",")'), story("A [b]light[/b] turned.")))).toEqual(["8 error"])
    expect(severities(await loads(source('split("\\n", true, 1)'), story("A [b]light[/b] turned.")))).toEqual(["8 error"])
  })
})

describe("judged again where further calls reach", () => {
  // A script found in data the pack's code reads (ConfigFile's Object(GDScript, …) in a .txt read by a constant path)
  // is analysed in a later round, and the earlier scripts again on a model where any call may reach their functions
  // (contentScan, analyzeAgainOpen): a load path judged on the pack's data is judged there again.
  it("a function given another part of the data by a script found later is judged with that part too", async () => {
    const main = ["extends EngineGame", "", "var items = {}", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/items.json", File.READ)', "\titems = parse_json(f.get_as_text())", '\tshow(items["key"])', "\tvar c = ConfigFile.new()", '\tc.load("res://data.txt")', "", "func show(item):", '\tload(item["icon"])', ""].join("\n")
    const later = 'extends Reference\\nfunc _init():\\n\\tvar f = File.new()\\n\\tf.open(\\"res://data/items.json\\", File.READ)\\n\\tvar d = parse_json(f.get_as_text())\\n\\tload(\\"res://game/main.gd\\").new().show(d)\\n'
    const data = { "res://data/items.json": JSON.stringify({ key: { icon: "res://icons/key.png" }, icon: "user://evil.tres" }) }
    expect(severities(await loads(main, data))).toEqual(["14 warning"])
    // The later script hands show() the whole JSON, whose "icon" is user://evil.tres.
    expect(severities(await loads(main, { ...data, "res://data.txt": `[s]\n\nk=Object(Reference,"script":Object(GDScript,"script/source":"${later}"))\n` }))).toContain("14 error")
  })
})
