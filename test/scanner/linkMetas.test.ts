// Red team 16c's FP3: a credits label's links opened with OS.shell_open through a RichTextLabel's `meta_clicked`
// (linkMetas.ts). The handler's parameter is every `[url]` meta of the BBCode the pack gives labels when all of it is
// constant and in sight, on a label the pack shows is a RichTextLabel; everything else stays the os-shell error.
import { describe, expect, it } from "vitest"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { engineNames } from "../../adapters/scanner/gdscript/engineClasses.ts"
import { PackModel } from "../../adapters/scanner/gdscript/packModel.ts"
import { indexPolicy } from "../../adapters/scanner/gdscript/PolicyIndex.ts"
import { bbcodeUrlMetas } from "../../adapters/scanner/resource/bbcode.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { lines } from "./fixtures/godotProjects.ts"
import { packOf, registrationsOf } from "./support/analyze.ts"

const CREDITS = '$Credits.bbcode_text = "Made by [url=https://twitter.com/dev]@dev[/url]\\nMusic: [url=https://freesound.org]freesound[/url]"'
const CONNECT = '$Credits.connect("meta_clicked", self, "_on_meta_clicked")'
const credits = (base: string, ...body: ReadonlyArray<string>): string => lines(`extends ${base}`, "func _ready():", ...body.map((b) => `\t${b}`), "func _on_meta_clicked(meta) -> void:", "\tOS.shell_open(str(meta))")

interface Pack {
  readonly nodes?: Readonly<Record<string, ReadonlyArray<string | null>>>
  readonly data?: ReadonlyArray<string>
  readonly unread?: boolean
}

/** `severity os-shell matched` of the script's os-shell findings, with the scenes' nodes and their strings' metas given. */
const hits = (main: string, pack: Pack = {}): ReadonlyArray<string> => {
  const scripts = packOf({ "res://main.gd": main }, 3)
  const sceneNodes = new Map(Object.entries(pack.nodes ?? { Credits: ["RichTextLabel"] }).map(([k, v]) => [k, new Set(v)]))
  const linkMetas = { urls: new Set(pack.data ?? []), unread: pack.unread ?? false }
  const model = new PackModel(scripts, registrationsOf(scripts), engineNames(3, indexPolicy(defaultPolicy)), { sceneNodes, linkMetas })
  return scripts.flatMap((s) => analyzeScript(s, model, defaultPolicy).hits.filter((h) => h.entry.id === "os-shell").map((h) => `${h.severity} ${h.entry.id} ${h.matched}`))
}
const BOTH = ['warning os-shell OS.shell_open("https://twitter.com/dev" or "https://freesound.org")']
const ERROR = ["error os-shell OS.shell_open"]

describe("RichTextLabel BBCode link metas (Godot 3 parser)", () => {
  it("gives [url=value] its value and [url] the text up to the next [", () => {
    expect(bbcodeUrlMetas("a [url=https://a.example]A[/url] [url]https://b.example[/url] [urlx] [url=]")).toEqual(["https://a.example", "https://b.example", ""])
    expect(bbcodeUrlMetas("[url]file:///bin/sh")).toEqual(["file:///bin/sh"])
    expect(bbcodeUrlMetas("[b]no link[/b] [url")).toEqual([])
  })
})

describe("a credits label's links opened through meta_clicked (red team 16c, FP3)", () => {
  it("is the web-address warning when every meta of the pack's BBCode is a constant https address", () => {
    expect(hits(credits("EngineGame", CREDITS, CONNECT))).toEqual(BOTH)
    expect(hits(credits("Node2D", CREDITS, CONNECT))).toEqual(BOTH)
    // append_bbcode and get_node by a constant path; the scenes' strings' metas (a scene's bbcode_text).
    expect(hits(credits("Node2D", '$Credits.append_bbcode("[url=https://twitter.com/dev]x[/url]")', 'get_node("Credits").connect("meta_clicked", self, "_on_meta_clicked")'), { data: ["https://freesound.org"] })).toEqual(BOTH)
    // A label script connecting its own signal.
    expect(hits(credits("RichTextLabel", "bbcode_text = \"[url]https://freesound.org[/url]\"", 'connect("meta_clicked", self, "_on_meta_clicked")'), { nodes: {} })).toEqual(['warning os-shell OS.shell_open("https://freesound.org")'])
  })

  it("stays an error for a meta that is no web address, in code or in the scenes", () => {
    expect(hits(credits("Node2D", CREDITS, '$Credits.append_bbcode("[url=file:///usr/bin/xterm]x[/url]")', CONNECT))).toEqual(ERROR)
    expect(hits(credits("Node2D", '$Credits.bbcode_text = "[url]/usr/bin/xterm[/url]"', CONNECT))).toEqual(ERROR)
    expect(hits(credits("Node2D", CREDITS, '$Credits.push_meta("file:///etc/passwd")', CONNECT))).toEqual(ERROR)
    expect(hits(credits("Node2D", CREDITS, CONNECT), { data: ["file:///bin/sh"] })).toEqual(ERROR)
  })

  it("stays an error for BBCode not all known: built at run time, translated, through a name, out of sight", () => {
    const routes: ReadonlyArray<ReadonlyArray<string>> = [
      ["var f = File.new()", 'f.open("user://links.txt", File.READ)', '$Credits.bbcode_text = "[url=%s]x[/url]" % f.get_line()'],
      ['$Credits.bbcode_text = tr("CREDITS")'],
      ['$Credits.bbcode_text += "[url=https://a.example]a[/url]"'],
      ['$Credits.set("bbcode_text", "[url=https://a.example]a[/url]")'],
      ['$Credits.call("append_bbcode", "[url=https://a.example]a[/url]")'],
      ['$Credits.call(get_meta("m"), "[url=https://a.example]a[/url]")'],
      ['$Credits.set(get_meta("p"), "[url=https://a.example]a[/url]")'],
      ['var t = Tween.new()', 't.interpolate_property($Credits, get_meta("p"), "", "x", 1.0)'],
      ["var f = File.new()", 'f.open("user://m.txt", File.READ)', "$Credits.push_meta(f.get_line())"],
      ["var f = File.new()", 'f.open("user://m.txt", File.READ)', "add_child(str2var(f.get_line()))"],
      ['$Credits["bbcode" + "_text"] = "[url=user://evil.tscn]x[/url]"'],
      ['var k = "bbcode_" + "text"', '$Credits[k] = "[url=user://evil.tscn]x[/url]"'],
      ['self[get_meta("p")] = "[url=user://evil.tscn]x[/url]"'],
      ['get_node("Credits")[get_meta("p")] = "[url=user://evil.tscn]x[/url]"'],
    ]
    for (const route of routes) expect(hits(credits("Node2D", CREDITS, ...route, CONNECT)), route.join("; ")).toEqual(ERROR)
    expect(hits(credits("Node2D", CREDITS, CONNECT), { unread: true })).toEqual(ERROR)
    // A Dictionary's subscript write by a name not constant keeps the metas known.
    expect(hits(credits("Node2D", CREDITS, "var d = {}", 'd[get_meta("k")] = 1', CONNECT))).toEqual(BOTH)
  })

  it("stays an error when code writes an animation track's keys or names its path (red team 17b)", () => {
    const routes: ReadonlyArray<ReadonlyArray<string>> = [
      ['var a = $Credits/Anim.get_animation("x")', 'a.track_set_key_value(0, 0, "[url=https://a.example]a[/url]")'],
      ['var a = $Credits/Anim.get_animation("x")', "a.track_insert_key(0, 0.0, Vector2(1, 2))"],
      ['var a = $Credits/Anim.get_animation("x")', 'a.call("track_insert_key", 0, 0.0, "x")'],
      ['var a = $Credits/Anim.get_animation("x")', 'a.set("tracks/0/keys", {"times": PoolRealArray([0]), "values": ["x"]})'],
      ["var a = Animation.new()", "a.add_track(Animation.TYPE_VALUE)", 'a.set("tracks/0/path", "Credits:bbcode" + "_text")'],
      ["var a = Animation.new()", "a.add_track(Animation.TYPE_VALUE)", 'a.set("tra" + "cks/0/path", "Credits:modulate")'],
    ]
    for (const route of routes) expect(hits(credits("Node2D", CREDITS, ...route, CONNECT)), route.join("; ")).toEqual(ERROR)
    // A track path that names no BBCode, given by track_set_path, keeps the metas known.
    expect(hits(credits("Node2D", CREDITS, "var a = Animation.new()", 'a.track_set_path(a.add_track(Animation.TYPE_VALUE), "Credits:modulate")', CONNECT))).toEqual(BOTH)
  })

  it("stays an error on a node the pack does not show is a RichTextLabel", () => {
    expect(hits(credits("Node2D", CREDITS, CONNECT), { nodes: {} })).toEqual(ERROR)
    expect(hits(credits("Node2D", CREDITS, CONNECT), { nodes: { Credits: ["RichTextLabel", null] } })).toEqual(ERROR)
    expect(hits(credits("Node2D", CREDITS, CONNECT), { nodes: { Credits: ["Button"] } })).toEqual(ERROR)
    expect(hits(credits("Node2D", CREDITS, 'get_parent().connect("meta_clicked", self, "_on_meta_clicked")'))).toEqual(ERROR)
    expect(hits(credits("EngineGame", CREDITS, 'connect("meta_clicked", self, "_on_meta_clicked")'))).toEqual(ERROR)
    // Code may name another object after the label.
    for (const naming of ['var n = Node2D.new()\n\tn.name = "Credits"', 'var n = Node2D.new()\n\tn.set_name(get_meta("n"))', 'var n = Node2D.new()\n\tn.set("name", "Credits")'])
      expect(hits(credits("Node2D", CREDITS, naming, CONNECT)), naming).toEqual(ERROR)
  })

  it("stays an error for the handler's other callers and the pack's own emissions", () => {
    expect(hits(credits("Node2D", CREDITS, CONNECT, '_on_meta_clicked("file:///bin/sh")'))).toEqual(ERROR)
    expect(hits(credits("Node2D", CREDITS, CONNECT, '$Credits.emit_signal("meta_clicked", "file:///bin/sh")'))).toEqual(ERROR)
    expect(hits(credits("Node2D", CREDITS, CONNECT, 'call("_on_meta_clicked", "file:///bin/sh")'))).toEqual(ERROR)
  })
})
