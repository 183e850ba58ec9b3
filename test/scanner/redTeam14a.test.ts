// The analysis side of what a fourteenth red team (a) got past the scanner (attackProjects33.ts holds the packs
// godot3-server ran): values the engine hands a method of the pack it calls by a constant name, other than the
// arguments written after the name, reach the method's parameters (engineCallbacks.ts). Channels Godot 3.2.3 cannot
// run here (its server build never draws, so VisualServer.request_frame_drawn_callback never fires:
// platform/server/os_server.cpp `OS_Server::can_draw` returns false, main/main.cpp draws only when it is true; 3.5's
// SceneTreeTween and NavigationServer; Godot 4) are checked on the analysis, with the engine source in each title.
import { describe, expect, it } from "vitest"
import { dataCallScript } from "../../adapters/scanner/checks/dataCallScript.ts"
import { TextResourceReader } from "../../adapters/scanner/resource/textResource.ts"
import { utf8 } from "./support/bytes.ts"
import { hitsIn } from "./support/analyze.ts"
import { writePack } from "./support/packWriter.ts"
import { writeBinaryScene } from "./support/resourceWriter.ts"
import { scanBytes } from "./support/scan.ts"

const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.split(" ")[1] === "error").map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)

/** Reads `txt` from user://, then `hand` (lines, `;` separated); the handler `h(x, y)` loads the parameter `use`; the load's line. */
const handing = (hand: string, grammar: 3 | 4, use = "x", members: ReadonlyArray<string> = []): { readonly text: string; readonly line: string } => {
  const read = grammar === 3 ? ["\tvar f = File.new()", '\tf.open("user://p.txt", File.READ)'] : ['\tvar f = FileAccess.open("user://p.txt", FileAccess.READ)']
  const text = ["extends Node", ...members, "func _ready():", ...read, "\tvar txt = f.get_line()", ...hand.split(";").map((l) => `\t${l.trim()}`), "func h(x = null, y = null):", `\tload(${use}).new()`, "\treturn false", ""].join("\n")
  return { text, line: String(text.split("\n").findIndex((l) => l.includes("load(")) + 1) }
}

const caught = (hand: string, grammar: 3 | 4, use = "x", members: ReadonlyArray<string> = []): void => {
  const { text, line } = handing(hand, grammar, use, members)
  expect(errors(hitsIn(text, {}, grammar)), `${grammar} ${hand} → ${use}`).toContain(`${line} runtime-code-loading`)
}

describe("values the engine hands a method it calls by a constant name (red team 14a)", () => {
  it("3.x Array.sort_custom gives the comparator elements, bsearch_custom an element and the value, in either order (core/array.cpp _ArrayVariantSortCustom, bisect)", () => {
    for (const use of ["x", "y"]) {
      caught('var a = [txt, txt]; a.sort_custom(self, "h")', 3, use)
      caught('var a = [1]; a.bsearch_custom(txt, self, "h")', 3, use)
      caught('var a = [txt]; a.bsearch_custom(1, self, "h", false)', 3, use)
    }
  })

  it("a force integration callback's userdata is its second argument (servers/physics_2d/body_2d_sw.cpp Body2DSW::call_queries), as is a 3.5 navigation agent's (modules/navigation/rvo_agent.cpp dispatch_callback)", () => {
    caught('Physics2DServer.body_set_force_integration_callback(Physics2DServer.body_create(), self, "h", txt)', 3, "y")
    caught('PhysicsServer.body_set_force_integration_callback(PhysicsServer.body_create(), self, "h", txt)', 3, "y")
    caught('Navigation2DServer.agent_set_callback(RID(), self, "h", txt)', 3, "y")
    caught('NavigationServer.agent_set_callback(RID(), self, "h", txt)', 3, "y")
  })

  it("VisualServer.request_frame_drawn_callback's userdata is the only argument (servers/visual/visual_server_raster.cpp VisualServerRaster::draw)", () => {
    caught('VisualServer.request_frame_drawn_callback(self, "h", txt)', 3)
  })

  it("3.5 SceneTreeTween: tween_callback's binds, tween_method's from/to then its binds (scene/animation/scene_tree_tween.cpp CallbackTweener/MethodTweener::step)", () => {
    caught('get_tree().create_tween().tween_callback(self, "h", [txt])', 3)
    caught('get_tree().create_tween().tween_method(self, "h", txt, txt, 1.0)', 3)
    caught('get_tree().create_tween().tween_method(self, "h", 0, 1, 1.0, [txt])', 3, "y")
  })

  it("a method track's key built in code: track_insert_key, track_set_key_value, tracks/N/keys", () => {
    for (const grammar of [3, 4] as const) {
      caught('var an = Animation.new(); an.track_insert_key(0, 0.1, {"method": "h", "args": [txt]})', grammar)
      caught('var an = Animation.new(); an.track_set_key_value(0, 0, {"method": "h", "args": [1, txt]})', grammar, "y")
      caught('var an = Animation.new(); an.set("tracks/0/keys", {"times": [0.1], "values": [{"method": "h", "args": [txt]}]})', grammar)
    }
  })

  it("a 3.x FuncRef given its object and method by set_instance and set_function (or .function), then call_func/call_funcv", () => {
    caught('var fr = FuncRef.new(); fr.set_instance(self); fr.set_function("h"); fr.call_func(txt)', 3)
    caught('var fr = FuncRef.new(); fr.set_instance(self); fr.function = "h"; fr.call_funcv([1, txt])', 3, "y")
  })

  it("4.x Callables: Array.sort_custom, bsearch_custom, map, filter, any, all, reduce; a physics body's force integration; Tween.tween_method; MultiplayerAPI.rpc's array", () => {
    for (const callable of ["h", "self.h", 'Callable(self, "h")', "h.bind(2)"]) {
      caught(`var a = [txt, txt]; a.sort_custom(${callable})`, 4)
      caught(`var a = [1]; a.bsearch_custom(txt, ${callable})`, 4, "y")
    }
    for (const m of ["map", "filter", "any", "all"]) caught(`[txt].${m}(h)`, 4)
    caught("[1].reduce(h, txt)", 4)
    caught("[txt].reduce(h, 0)", 4, "y")
    caught("PhysicsServer2D.body_set_force_integration_callback(PhysicsServer2D.body_create(), h, txt)", 4, "y")
    caught("create_tween().tween_method(h, txt, txt, 1.0)", 4)
    caught('multiplayer.rpc(1, self, "h", [1, txt])', 4, "y")
  })

  it("a property write by a constant name runs the member's setter with its value (Object::set → GDScriptInstance::set)", () => {
    const member3 = ["var m setget h"]
    for (const write of ['set("m", txt)', 'set_deferred("m", txt)', 'set_indexed("m", txt)', 'rset("m", txt)', 'get_tree().set_group("g", "m", txt)', 'UndoRedo.new().add_do_property(self, "m", txt)', 'get_tree().create_tween().tween_property(self, "m", txt, 1.0)']) {
      caught(write, 3, "x", member3)
    }
    const member4 = ["var m:", "\tset = h"]
    for (const write of ['set("m", txt)', 'set_thread_safe("m", txt)', 'set_deferred_thread_group("m", txt)', 'create_tween().tween_property(self, "m", txt, 1.0)']) caught(write, 4, "x", member4)
  })

  it("_set gets the property and the value of the other writers by name (set_indexed, add_do_property)", () => {
    const text = (write: string): string => ["extends Node", "func _ready():", '\tvar f = File.new()', '\tf.open("user://p.txt", File.READ)', `\t${write}`, "func _set(p, v):", "\tload(v).new()", "\treturn true", ""].join("\n")
    for (const write of ['set_indexed("zz", f.get_line())', 'UndoRedo.new().add_do_property(self, "zz", f.get_line())']) expect(errors(hitsIn(text(write), {}, 3)), write).toContain("7 runtime-code-loading")
  })

  it("the same channels handing constants of the pack, and an ordinary comparator, have no error", () => {
    const clean = (hand: string, grammar: 3 | 4, members: ReadonlyArray<string> = []): void => {
      const text = ["extends Node", ...members, "func _ready():", ...hand.split(";").map((l) => `\t${l.trim()}`), "func h(a = null, b = null):", "\tif a is String:", "\t\tload(a)", "\treturn a < b", ""].join("\n")
      expect(errors(hitsIn(text, {}, grammar)), hand).toEqual([])
    }
    clean('var a = [3, 1, 2]; a.sort_custom(self, "h"); a.bsearch_custom(2, self, "h")', 3)
    clean('var a = ["res://a.tres"]; a.sort_custom(self, "h")', 3)
    clean('Physics2DServer.body_set_force_integration_callback(Physics2DServer.body_create(), self, "h", 0.5)', 3)
    clean('var an = Animation.new(); an.track_insert_key(0, 0.1, {"method": "h", "args": ["res://click.tres"]})', 3)
    clean('set("m", "res://a.tres")', 3, ["var m setget h"])
    clean("var a = [3, 1, 2]; a.sort_custom(h); a.map(h); [1].reduce(h, 0)", 4)
  })

  it("a comparator of another class of the pack is not handed this class's elements", () => {
    const other = "extends Reference\nfunc h(x, y):\n\treturn x < y\n"
    const { text } = handing('var a = [txt]; a.sort_custom(preload("res://other.gd").new(), "h")', 3)
    expect(errors(hitsIn(text, { "res://other.gd": other }, 3))).toEqual([])
  })
})

describe("method tracks and connections in scene data hand their values to the method (red team 14a)", () => {
  const holder = "extends Node\nfunc h_track(n, p):\n\tDirAccess.make_dir_absolute(p)\nfunc h_conn(p):\n\tDirAccess.make_dir_absolute(p)\n"

  it("Godot 4 binary scene: a method track's args and a connection's binds reach the parameters of the pack's method", async () => {
    const scene = writeBinaryScene({
      scripts: [],
      animations: [{ id: "Animation_a", names: ["Holder"], subnames: [], method: { name: "h_track", args: ["x", "/tmp/rt14_track"] } }],
      nodes: [
        { name: "Level", type: "Node", parent: -1 },
        { name: "Holder", type: "Node", parent: 0, script: { external: "res://holder.gd" } },
        { name: "Timer", type: "Timer", parent: 0 },
      ],
      connections: [{ from: 2, to: 1, signal: "timeout", method: "h_conn", binds: ["/tmp/rt14_conn"] }],
    })
    const report = await scanBytes(writePack({ format: 3, entries: [{ path: "res://level.scn", data: scene }, { path: "res://holder.gd", data: utf8(holder) }] }))
    const found = report.findings.filter((f) => f.file === "res://holder.gd" && f.severity === "error").map((f) => `${f.line} ${/\(policy ([a-z0-9-]+)\)/.exec(f.message)?.[1] ?? f.rule}`)
    expect(found).toEqual(["3 filesystem-outside-sandbox", "5 filesystem-outside-sandbox"])
  })

  it("a text resource keeps the numbers of a key's args in place, so the name after a peer id is rpc_id's name (checks/dataCallScript.ts)", () => {
    const reader = new TextResourceReader(3)
    reader.feed(
      [
        '[gd_scene load_steps=2 format=2]',
        '[sub_resource type="Animation" id=1]',
        'tracks/0/type = "method"',
        'tracks/0/path = NodePath(".")',
        'tracks/0/keys = { "times": PoolRealArray( 0 ), "values": [ { "args": [ 1, "set_indexed", "s:source_code", "x" ], "method": "rpc_id" } ] }',
        '[node name="N" type="Node"]',
        "",
      ].join("\n"),
    )
    const [track] = reader.finish().trackCalls
    expect(track?.args).toEqual([1, "set_indexed", "s:source_code", "x"])
    const script = dataCallScript([{ node: ".", resource: [], method: "rpc_id", args: track?.args ?? [], afterSignal: false, at: null, what: "" }], () => null)
    expect(errors(hitsIn(script?.source ?? "", {}, 3))).toEqual(["3 script-source-code"])
  })
})
