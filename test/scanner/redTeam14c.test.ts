// Three false positives a fourteenth red team (c) found in ordinary Godot 3 jam-game code (attackProjects30.ts holds
// the look-alikes and the attacks godot3-server exported and ran), with the shapes each reading must keep catching:
// - a scene changer whose `next_scene` starts as "": "" is a relative path ResourceLoader makes "res://", which
//   loads nothing from outside the pack, so it no longer makes change_scene(next_scene) a load from outside;
// - `connect("pressed", self, "_on_link", ["https://…"])` then `OS.shell_open(url)`: a handler whose name only the
//   pack's code connections spell takes what they deliver (the signal's arguments, then the binds);
// - `trigger.connect("activated", self, trigger.callback)` on a node from get_nodes_in_group: `node.callback` is one
//   of the pack's members named `callback`, each closed to the constants the pack gives it.
import { describe, expect, it } from "vitest"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { engineNames } from "../../adapters/scanner/gdscript/engineClasses.ts"
import type { DataProperties } from "../../adapters/scanner/gdscript/memberWrites.ts"
import { PackModel } from "../../adapters/scanner/gdscript/packModel.ts"
import { indexPolicy } from "../../adapters/scanner/gdscript/PolicyIndex.ts"
import type { Grammar } from "../../adapters/scanner/gdscript/tokenizer.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { lines } from "./fixtures/godotProjects.ts"
import { hitsIn, packOf, registrationsOf } from "./support/analyze.ts"

/** `path:line severity policy-id` of every finding in the pack (scenes setting `data` properties), scripts analysed in order with one model. */
const packHits = (files: Readonly<Record<string, string>>, data: Readonly<Record<string, ReadonlyArray<string>>> = {}, grammar: Grammar = 3): ReadonlyArray<string> => {
  const scripts = packOf(files, grammar)
  const dataProperties: DataProperties = { values: new Map(Object.entries(data).map(([name, values]) => [name, values.map((value) => ({ script: null, value }))])), written: new Set() }
  const model = new PackModel(scripts, registrationsOf(scripts), engineNames(grammar, indexPolicy(defaultPolicy)), { dataProperties })
  return scripts.flatMap((s) => analyzeScript(s, model, defaultPolicy).hits.map((h) => `${s.path}:${h.line} ${h.severity} ${h.entry.id}`))
}
const errorsOf = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.includes(" error "))

describe('a load path that may be "" (red team 14c, FP2)', () => {
  const changer = (init: string, ...more: ReadonlyArray<string>): string =>
    lines("extends Node", `var next_scene = ${init}`, "func _ready():", '\tnext_scene = "res://game/main.tscn"', ...more, "func _on_timeout():", '\tif next_scene != "":', "\t\tget_tree().change_scene(next_scene)")

  it("a member closed to \"\" and a path of the pack loads only that path: no finding; one open to callers out of sight is the warning a res:// default gets", () => {
    expect(hitsIn(changer('""'), {}, 3)).toEqual([])
    const open = lines("extends Node", 'var next_scene = ""', "func _ready():", '\tgoto("res://game/main.tscn")', "func _input(p):", "\tnext_scene = p", "func goto(p):", "\t_input(p)", "func _on_timeout():", "\tget_tree().change_scene(next_scene)")
    expect(hitsIn(open, {}, 3)).toEqual(hitsIn(open.replace('var next_scene = ""', 'var next_scene = "res://game/main.tscn"'), {}, 3))
    expect(hitsIn(open, {}, 3)).toEqual(["10:26 warning runtime-code-loading SceneTree.change_scene(…)"])
    for (const load of ['load("")', 'ResourceLoader.load("")', 'ResourceLoader.load_interactive("")', 'get_tree().change_scene("")']) expect(hitsIn(lines("extends Node", "func _ready():", `\t${load}`), {}, 3)).toEqual([])
    expect(hitsIn(lines("extends Node", "func _ready():", '\tget_tree().change_scene_to_file("")'), {}, 4)).toEqual([])
  })

  it('keeps every other alternative, a string joined to "" and a folder operation on "" as they were; a file opened or saved at "" is none (pckgate-scanner/16: fopen fails)', () => {
    expect(errorsOf(hitsIn(changer('""', '\tnext_scene = "user://mod.tscn"'), {}, 3))).toEqual(["8:27 error runtime-code-loading SceneTree.change_scene(…)"])
    const joined = (expr: string): ReadonlyArray<string> => errorsOf(hitsIn(lines("extends Node", 'var base = ""', "func _ready():", "\tvar f = File.new()", '\tf.open("user://next.txt", File.READ)', `\tload(${expr})`), {}, 3))
    expect(joined("base + f.get_as_text()")).toEqual(["6:7 error runtime-code-loading load(…)"])
    expect(joined('"%s" % f.get_as_text()')).toEqual(["6:7 error runtime-code-loading load(…)"])
    expect(joined('"" + "user://mod.gd"')).toEqual(['6:7 error runtime-code-loading load("user://mod.gd")'])
    expect(joined('char(0) + "user://mod.gd"')).toEqual(['6:7 error runtime-code-loading load("user://mod.gd")'])
    expect(errorsOf(hitsIn(lines("extends Node", "func _ready():", "\tvar f = File.new()", '\tf.open("", File.WRITE)'), {}, 3))).toEqual([])
    expect(errorsOf(hitsIn(lines("extends Node", 'var save_path = ""', "func _ready():", '\tsave_path = "/tmp/x"', "\tvar f = File.new()", "\tf.open(save_path, File.WRITE)"), {}, 3))).toEqual(['6:2 error filesystem-outside-sandbox File.open("/tmp/x")'])
    expect(errorsOf(hitsIn(lines("extends Node", "func _ready():", "\tvar d = Directory.new()", '\td.remove("")'), {}, 3))).toEqual(['4:2 error filesystem-outside-sandbox Directory.remove("")'])
    // With save-and-swap on, FileAccess writes `path + ".tmp"` and renames it only for a path that is not "": `.tmp` in
    // the working folder (a twenty-eighth red team's, run by godot3-server).
    expect(errorsOf(hitsIn(lines("extends Node", "func _ready():", "\tOS.set_use_file_access_save_and_swap(true)", "\tvar f = File.new()", '\tf.open("", File.WRITE)'), {}, 3))).toEqual(['5:2 error filesystem-outside-sandbox File.open("")'])
  })
})

describe("a handler only the pack's code connections reach (red team 14c, FP7)", () => {
  const linker = (base: string, connects: ReadonlyArray<string>, ...more: ReadonlyArray<string>): string =>
    lines(`extends ${base}`, "func _ready():", ...connects.map((c) => `\t${c}`), "func _on_link(url):", "\tOS.shell_open(url)", ...more)
  const bind = '$Menu/Twitter.connect("pressed", self, "_on_link", ["https://twitter.com/coolstudio"])'

  it("takes the binds after the signal's own arguments (a Button's pressed has none): the constant address's warning", () => {
    expect(hitsIn(linker("Node2D", [bind]), {}, 3)).toEqual(['5:2 warning os-shell OS.shell_open("https://twitter.com/coolstudio")'])
    // A class extending the SDK's EngineGame (not in the pack): the same warning, saying the SDK may call the function too.
    expect(hitsIn(linker("EngineGame", [bind]), {}, 3)).toEqual(['5:2 warning os-shell OS.shell_open("https://twitter.com/coolstudio")'])
    const two = [bind, '$Menu/Itch.connect("pressed", self, "_on_link", ["https://coolstudio.itch.io"])']
    expect(hitsIn(linker("Node2D", two), {}, 3)).toEqual(['6:2 warning os-shell OS.shell_open("https://twitter.com/coolstudio" or "https://coolstudio.itch.io")'])
    // The pack's own signal: what its emissions pass, then the binds.
    const own = ['$Menu.connect("chosen", self, "_on_link")', '$Menu.emit_signal("chosen", "https://coolstudio.itch.io")']
    expect(hitsIn(linker("Node2D", own, "signal chosen(url)"), {}, 3)).toEqual(['6:2 warning os-shell OS.shell_open("https://coolstudio.itch.io")'])
  })

  it("in a class extending the SDK's, only the web address rule reads past the SDK: a property path bound by name stays an error", () => {
    const fade = (base: string): ReadonlyArray<string> => errorsOf(hitsIn(lines(`extends ${base}`, "func _ready():", '\t$Fade.connect("pressed", self, "_on_fade", ["modulate:a"])', "func _on_fade(prop):", "\tset_indexed(prop, 0.5)"), {}, 3))
    expect(fade("Node2D")).toEqual([])
    expect(fade("EngineGame")).not.toEqual([])
  })

  it("takes what the SDK passes for a signal the pack declares but an object extending the SDK's may emit too", () => {
    const message = (emitter: string): ReadonlyArray<string> =>
      errorsOf(hitsIn(lines("extends Node2D", "signal message(text)", "func _ready():", `\t${emitter}.connect("message", self, "_on_message")`, `\t${emitter}.emit_signal("message", "modulate:a")`, "func _on_message(prop):", "\tset_indexed(prop, 1)"), {}, 3))
    expect(message("self")).toEqual([])
    expect(message("get_parent()")).not.toEqual([])
    expect(message("$Hud")).not.toEqual([])
  })

  it("stays an error for a bind that is no web address, and for every other route to the handler", () => {
    const routes: ReadonlyArray<ReadonlyArray<string>> = [
      ['$B.connect("pressed", self, "_on_link", ["user://notes.txt"])'],
      [bind, '$B.connect("pressed", self, "_on_link", ["file:///etc/passwd"])'],
      [bind, '_on_link("file:///etc/passwd")'],
      [bind, 'call("_on_link", "file:///etc/passwd")'],
      [bind, 'call("_on_" + "link", "file:///etc/passwd")'],
      [bind, "call(get_meta(\"m\"), \"file:///etc/passwd\")"],
      [bind, 'var t = Timer.new()', 't.call_deferred("_on_link", "file:///etc/passwd")'],
      [bind, '$Menu/Twitter.emit_signal("pressed", "file:///etc/passwd")'],
      [bind, 'emit_signal(get_meta("s"), "file:///etc/passwd")'],
      [bind, 'call("emit_signal", "pressed", "file:///etc/passwd")'],
      [bind, 'connect("x", self, "emit_signal", ["pressed", "file:///etc/passwd"])'],
      [bind, 'var f = _on_link'],
      ['$Name.connect("text_entered", self, "_on_link")'],
      ['connect("pressed", self, "_on_link", ["https://twitter.com/coolstudio"])'],
      ['$B.connect("pressed", self, "_on_link", get_meta("binds"))'],
      ['$B.connect(get_meta("s"), self, "_on_link", ["https://twitter.com/coolstudio"])'],
      ['get_parent().connect("sdk_message", self, "_on_link", ["https://twitter.com/coolstudio"])'],
    ]
    for (const route of routes) expect(errorsOf(hitsIn(linker("Node2D", route), {}, 3)), route.join("; ")).toContain(`${4 + route.length}:2 error os-shell OS.shell_open`)
  })

  it("stays open for a name the engine calls itself, in Godot 4, and where a string of the pack spells it otherwise", () => {
    const handler = (name: string): string => lines("extends Node2D", "func _ready():", `\t$B.connect("pressed", self, "${name}", ["https://x.example"])`, `func ${name}(url):`, "\tOS.shell_open(url)")
    for (const name of ["_unhandled_input", "_on_theme_changed", "_iter_init", "_notification"]) expect(errorsOf(hitsIn(handler(name), {}, 3)), name).toEqual(["5:2 error os-shell OS.shell_open"])
    expect(errorsOf(hitsIn(handler("_on_link"), {}, 4))).toEqual(["5:2 error os-shell OS.shell_open"])
    expect(errorsOf(hitsIn(`${handler("_on_link")}func _x():\n\tvar shown = "_on_link done"\n\tprint(shown)\n`, {}, 3))).toEqual(["5:2 error os-shell OS.shell_open"])
  })
})

describe("a member read on a node of unknown script (red team 14c, FP6)", () => {
  const MAIN = lines(
    "extends Node2D",
    "func _ready():",
    '\tfor trigger in get_tree().get_nodes_in_group("triggers"):',
    '\t\ttrigger.connect("activated", self, trigger.callback)',
    "func open_door():",
    "\tpass",
    "func play_cutscene():",
    "\tpass",
  )
  const trigger = (decl = 'export var callback = "open_door"', ...more: ReadonlyArray<string>): string =>
    lines("extends Area2D", "signal activated", decl, "func _ready():", '\tadd_to_group("triggers")', "func _on_body_entered(_b):", '\temit_signal("activated")', ...more)
  const game = (files: Readonly<Record<string, string>> = {}, data: Readonly<Record<string, ReadonlyArray<string>>> = { callback: ["open_door", "play_cutscene"] }, grammar: Grammar = 3): ReadonlyArray<string> =>
    errorsOf(packHits({ "res://game/main.gd": MAIN, "res://game/trigger.gd": trigger(), ...files }, data, grammar))

  it("is every member of that name when each holds only constants: harmless methods of self are no dynamic dispatch", () => {
    expect(game()).toEqual([])
    expect(game({}, { callback: ["open_door", "queue_free"] })).toEqual([])
  })

  it("keeps the error where a value may be a writer or call by name, or where anything else may answer the read", () => {
    const dispatch = "res://game/main.gd:4 error dynamic-dispatch"
    for (const bad of ["set", "call", "connect", "propagate_call", "call_group"]) expect(game({}, { callback: ["open_door", bad] }), bad).toEqual([dispatch])
    // A getter answers the read with what it returns (memberGetter.ts): a value not constant is the error.
    expect(game({ "res://game/trigger.gd": trigger('export var callback = "open_door" setget , get_cb', "func get_cb():", '\treturn get_meta("cb")') })).toEqual([dispatch])
    expect(game({ "res://game/trigger.gd": trigger('export var callback = "open_door" setget , get_cb', "func get_cb():", '\treturn "call"') })).toEqual([dispatch])
    expect(game({ "res://game/x.gd": lines("extends Node", "func _get(p):", '\treturn "set"') })).toEqual([dispatch])
    expect(game({ "res://game/x.gd": lines("extends Node", 'const callback = "set"') })).toEqual([dispatch])
    expect(game({ "res://game/x.gd": lines("extends Node", 'var callback = "open_door"', "func _ready():", '\tcallback = OS.get_environment("CB")') })).toEqual([dispatch])
    expect(game({ "res://game/x.gd": lines("extends Node", "func _ready():", '\tget_parent().callback = get_meta("cb")') })).toEqual([dispatch])
    // An engine property of that name (a LineEdit's text), a Dictionary, Godot 4.
    const text = packHits({ "res://game/main.gd": MAIN.replaceAll("trigger.callback", "trigger.text"), "res://game/trigger.gd": trigger('export var text = "open_door"') })
    expect(errorsOf(text)).toEqual([dispatch])
    expect(errorsOf(packHits({ "res://game/main.gd": MAIN.replace('get_tree().get_nodes_in_group("triggers")', "[{}]"), "res://game/trigger.gd": trigger() }))).toEqual([dispatch])
    const four = MAIN.replace("extends Node2D", "extends Node2D").replace('trigger.connect("activated", self, trigger.callback)', 'trigger.connect("activated", Callable(self, trigger.callback))')
    expect(errorsOf(packHits({ "res://game/main.gd": four, "res://game/trigger.gd": trigger().replace("export var", "@export var") }, { callback: ["open_door"] }, 4))).toEqual([dispatch])
  })

  it('judges "set_script" as the constant written in place is judged: its script comes from the emission, a warning', () => {
    const constant = packHits({ "res://game/main.gd": MAIN.replace("trigger.callback", '"set_script"'), "res://game/trigger.gd": trigger() })
    expect(packHits({ "res://game/main.gd": MAIN, "res://game/trigger.gd": trigger() }, { callback: ["open_door", "set_script"] })).toEqual(constant)
    expect(constant).toEqual(["res://game/main.gd:4 warning runtime-code-loading"])
  })
})
