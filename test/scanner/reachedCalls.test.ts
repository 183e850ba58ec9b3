// Calls are judged on what they reach: dispatch by a constant name is the direct call (its path,
// load and argument rules included, arguments shifted by the name); an object that may be any
// engine object (instance_from_id, a singleton fetched by name through dispatch) calling a banned
// method is that method; members, parameters and returned values are followed. Each evasion below
// was run by godot3-server in an audit (the engine-run proofs are in attackCorpus.test.ts); the
// look-alikes are ordinary game code that must stay free of errors.
import { describe, expect, it } from "vitest"
import { hitsIn, ids } from "./support/analyze.ts"

const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.split(" ")[1] === "error")
const fn3 = (...body: ReadonlyArray<string>): string => `extends Node\nfunc _ready():\n${body.map((l) => `\t${l}`).join("\n")}\n`

describe("an object that may be any engine object", () => {
  it("instance_from_id(OS.get_instance_id()) calling execute is OS.execute, in both grammars", () => {
    for (const grammar of [3, 4] as const) {
      expect(hitsIn(fn3("var o = instance_from_id(OS.get_instance_id())", 'o.execute("touch", [])'), {}, grammar)).toEqual(["4:2 error os-process o.execute"])
    }
    expect(ids(hitsIn(fn3("for i in 100:", "\tvar o = instance_from_id(i)", '\to.kill(1)', '\to.shell_open("x")'), {}, 3))).toEqual(["os-kill", "os-shell"])
  })

  it("followed through parameters, return values of another script, members, casts to Object and typed Object variables", () => {
    expect(errors(hitsIn(fn3("run(instance_from_id(5))") + 'func run(o):\n\to.execute("t", [])\n', {}, 3))).toEqual(["5:2 error os-process o.execute"])
    expect(errors(hitsIn(fn3('preload("res://h.gd").get_o().execute("t", [])'), { "res://h.gd": "extends Reference\nstatic func get_o():\n\treturn instance_from_id(5)\n" }, 3))).toEqual([
      "3:2 error os-process ….get_o().execute",
    ])
    expect(errors(hitsIn("extends Node\nvar o\nfunc a():\n\to = instance_from_id(5)\nfunc b():\n\to.execute(\"t\", [])\n", {}, 3))).toEqual(["6:2 error os-process o.execute"])
    expect(ids(hitsIn(fn3("var o: Object = instance_from_id(5)", "o.kill(1)", "(instance_from_id(6) as Object).kill(2)"), {}, 4))).toEqual(["os-kill", "os-kill"])
  })

  it("escapes where it goes out of sight: a container whose elements reach a dangerous call, a signal, another object's method", () => {
    expect(
      hitsIn(
        fn3("var a = []", "a.append(instance_from_id(5))", "var d = {}", 'd["o"] = instance_from_id(6)', 'emit_signal("s", instance_from_id(7))', "var b = [instance_from_id(8)]", 'a[0].execute("t", [])', 'd.values()[0].call("kill", 1)'),
        {},
        3,
      ),
    ).toEqual([
      "4:11 error dangerous-object-escape instance_from_id(…)",
      "6:11 error dangerous-object-escape instance_from_id(…)",
      "7:19 error dangerous-object-escape instance_from_id(…)",
      "8:11 error dangerous-object-escape instance_from_id(…)",
      // The element is not followed through a container filled by append, but execute and kill on an object that
      // cannot be pinned down reach only the engine's when no class of the pack defines them.
      "9:2 error os-process ….execute(…)",
      '10:2 error os-kill call("kill")',
    ])
    // Through a loop variable, a local holding an element, front(): the element reaches execute or call.
    for (const use of ["for t in a:\n\t\tt.execute(\"t\", [])", "var t = a.front()\n\tt.call(\"kill\", 1)", "return a[0]", "other(a)"]) {
      expect(hitsIn(fn3("var a = []", "a.append(instance_from_id(5))", use) + "func other(x):\n\tpass\n", {}, 3), use).toContain("4:11 error dangerous-object-escape instance_from_id(…)")
    }
  })

  it("a container whose elements are only looked at or called with methods no policy names is a warning, also as a member", () => {
    const local = fn3("var targets = []", "targets.append(instance_from_id(5))", "for t in targets:", "\tif is_instance_valid(t):", "\t\tt.take_damage(2)", "\t\tprint(t)", "var first = targets.front()", "if first != null:", "\tfirst.hide()")
    expect(hitsIn(local, {}, 3)).toEqual(["4:17 warning dangerous-object-escape instance_from_id(…)"])
    const member = "extends Node\nvar seen = []\nfunc a(id):\n\tseen.append(instance_from_id(id))\nfunc b():\n\tfor s in seen:\n\t\ts.set_process(false)\n"
    expect(hitsIn(member, {}, 3)).toEqual(["4:14 warning dangerous-object-escape instance_from_id(…)"])
    // Read by another script, or by a subclass that calls execute on its elements: an error.
    expect(hitsIn(member, { "res://other.gd": 'extends Node\nfunc f(n):\n\tn.seen[0].queue_free()\n' }, 3)).toEqual(["4:14 error dangerous-object-escape instance_from_id(…)"])
    expect(ids(hitsIn(member, { "res://sub.gd": 'extends "res://main.gd"\nfunc c():\n\tseen[0].execute("t", [])\n' }, 3))).toEqual(["dangerous-object-escape"])
    expect(hitsIn(member, { "res://sub.gd": 'extends "res://main.gd"\nfunc c():\n\tseen[0].execute("t", [])\n' }, 3)[0]).toContain("error")
  })

  it("cast to your own class (or looked at only) it is your object: no finding", () => {
    const enemy = { "res://enemy.gd": "extends Node\nclass_name Enemy\nfunc kill():\n\tpass\n" }
    const source = fn3("var e = instance_from_id(4) as Enemy", "e.kill()", "var f: Enemy = instance_from_id(5)", "f.kill()", "if is_instance_valid(instance_from_id(6)):", "\tprint(instance_from_id(6))", "instance_from_id(7).queue_free()")
    expect(hitsIn(source, enemy, 3)).toEqual([])
  })
})

describe("dispatch by a constant name is the direct call", () => {
  it("get_singleton and ClassDB instantiation reached through call, callv and funcref give the object itself", () => {
    for (const reach of ['Engine.call("get_singleton", "OS")', 'Engine.callv("get_singleton", ["OS"])', 'ClassDB.call("instance", "_OS")', '_OS.new()']) {
      expect(errors(hitsIn(fn3(`${reach}.execute("touch", [])`), {}, 3)), reach).toEqual(["3:2 error os-process OS.execute"])
    }
    // A bound get_singleton can be called with any name elsewhere: an error where it is bound, and OS where it is called.
    expect(errors(hitsIn(fn3('funcref(Engine, "get_singleton").call_func("OS").execute("touch", [])'), {}, 3))).toEqual([
      "3:2 error dynamic-dispatch Engine.get_singleton(…)",
      "3:2 error os-process OS.execute",
    ])
    expect(hitsIn(fn3('ClassDB.call("instantiate", "Expression").parse("1")'), {}, 4)).toEqual(['3:2 error expression ClassDB.instantiate("Expression")'])
    expect(ids(hitsIn(fn3('var o = Engine.call("get_singleton", "OS")'), {}, 4))).toEqual(["dangerous-object-escape"])
  })

  it("path, run-time load and argument rules apply to the arguments after the name", () => {
    expect(
      hitsIn(
        fn3(
          'Directory.new().call("make_dir_recursive", "/abs/path")',
          'File.new().call("open", "/etc/passwd", File.READ)',
          'Marshalls.call("base64_to_variant", "x", true)',
          'ResourceLoader.call("load", "user://mod.gd")',
          'ResourceLoader.callv("load", ["user://a.gd"])',
          'Thread.new().start(ResourceLoader, "load", "user://evil.tres")',
          'UndoRedo.new().add_do_method(Directory.new(), "remove", "/etc/x")',
          'funcref(ResourceLoader, "load").call_func("user://b.gd")',
          'Directory.new().call("make_dir", "user://saves")',
        ),
        {},
        3,
      ),
    ).toEqual([
      '3:2 error filesystem-outside-sandbox Directory.make_dir_recursive("/abs/path")',
      '4:2 error filesystem-outside-sandbox File.open("/etc/passwd")',
      '5:2 error base64-to-variant-objects Marshalls.base64_to_variant(…, true)',
      '6:30 error runtime-code-loading ResourceLoader.load("user://mod.gd")',
      '7:32 error runtime-code-loading ResourceLoader.load("user://a.gd")',
      '8:45 error runtime-code-loading ResourceLoader.load("user://evil.tres")',
      '9:2 error filesystem-outside-sandbox Directory.remove("/etc/x")',
      // Bound, its arguments are out of sight (a warning); called, they are these.
      "10:2 warning runtime-code-loading ResourceLoader.load(…)",
      '10:44 error runtime-code-loading ResourceLoader.load("user://b.gd")',
    ])
  })

  it("Tween callbacks and Thread.start reach the method on the object they are given", () => {
    expect(errors(hitsIn(fn3("var tw = Tween.new()", 'tw.interpolate_callback(OS, 0.0, "execute", "touch", [])', "var t = Thread.new()", 't.start(OS, "kill", 1)'), {}, 3))).toEqual([
      '4:2 error os-process interpolate_callback("execute")',
      '6:2 error os-kill start("kill")',
    ])
  })

  it("a string method the scanner does not fold leaves the name not constant", () => {
    expect(hitsIn(fn3('OS.call("Execute".to_snake_case(), "t", [])'), {}, 3)).toEqual(["3:2 error dynamic-dispatch OS.call(…)"])
  })
})

describe("values followed to a load", () => {
  it("members and parameters with values from outside the pack are errors; under res:// warnings", () => {
    expect(hitsIn('extends Node\nvar path = "user://mod.gd"\nfunc _ready():\n\tload(path).new()\n', {}, 3)).toEqual(['4:7 error runtime-code-loading load("user://mod.gd")'])
    // go is reached only by this call: p is its argument.
    expect(hitsIn(fn3('go("user://mod.gd")') + "func go(p):\n\tload(p)\n", {}, 3)).toEqual(['5:7 error runtime-code-loading load("user://mod.gd")'])
    expect(hitsIn(fn3('go("user://mod.gd")', 'call(name, "res://a.gd")') + "func go(p):\n\tload(p)\n", {}, 3)).toEqual(["6:7 error runtime-code-loading load(…)"])
    expect(hitsIn(fn3('var p = "user://"', 'p += "x.gd"', "load(p)"), {}, 3)).toEqual(['5:7 error runtime-code-loading load("user://" …)'])
    expect(hitsIn(fn3('load(OS.get_user_data_dir() + "/mod.gd")', 'load(OS.get_executable_path().get_base_dir() + "/m.gd")'), {}, 3)).toEqual([
      // The user data folder is user:// (so the path shows as one): a load from there is a load from outside the pack.
      '3:7 error runtime-code-loading load("user:///mod.gd" …)',
      '4:7 error runtime-code-loading load("/" …)',
    ])
    // A member only ever given constants holds them (closed by its writers, memberWrites.ts); one also built at run time under res:// is a warning.
    expect(hitsIn('extends Node\nvar level = "res://levels/1.tscn"\nfunc _ready():\n\tload(level)\n\tgo("res://levels/2.tscn")\nfunc go(p):\n\tload(p)\n', {}, 3)).toEqual([])
    expect(hitsIn('extends Node\nvar level = "res://levels/1.tscn"\nfunc _ready():\n\tload(level)\nfunc next(n):\n\tlevel = "res://levels/%d.tscn" % n\n', { "res://other.gd": "extends Node\nfunc _ready():\n\tpass\n" }, 3)).toEqual([
      "4:7 warning runtime-code-loading load(…)",
    ])
    // go reached by a name that is not constant too: p may be anything.
    expect(hitsIn('extends Node\nfunc _ready():\n\tgo("res://levels/2.tscn")\n\tcall(n, 1)\nfunc go(p):\n\tload(p)\n', {}, 3)).toEqual(["6:7 warning runtime-code-loading load(…)"])
  })
})

describe("a script's source written by a name that is not constant", () => {
  it("on a script, a duplicated script or an object reloaded in the same function, an error", () => {
    const blank = { "res://blank.gd": "extends Reference\n" }
    expect(errors(hitsIn(fn3('var s = load("res://blank.gd").duplicate()', 'var key = "source"', 'key += "_code"', 's[key] = "src"', "s.reload()"), blank, 3))).toEqual([
      "6:2 error script-source-code s[…] =",
    ])
    expect(errors(hitsIn(fn3('var s = get_node("x").get_meta("s")', "var k = str(randi())", 's[k] = "x"', "s.reload()"), {}, 4))).toEqual(["5:2 error script-source-code s[…] ="])
    // A member written in one function and reloaded in another.
    expect(errors(hitsIn("extends Node\nvar s\nfunc a(k):\n\ts[k] = \"x\"\nfunc b():\n\ts.reload()\n", {}, 3))).toEqual(["4:2 error script-source-code s[…] ="])
    expect(ids(errors(hitsIn(fn3('var s = load("res://blank.gd")', "var k = str(randi())", 's.set(k, "x")'), blank, 3)))).toEqual(["script-source-code"])
    expect(ids(errors(hitsIn(fn3("var p = PacketPeerStream.new()", 'var k = "allow_object_"', 'k += "decoding"', "p.set(k, true)"), {}, 3)))).toEqual(["object-decoding-flag"])
  })

  it("dictionaries and your own objects written by computed keys are fine", () => {
    expect(hitsIn('extends Node\nvar d = {}\nvar source_code = ""\nfunc _ready():\n\tfor k in ["a", "b"]:\n\t\td[k] = 1\n\tvar key = "x" + str(1)\n\td[key] = 2\n\tset(key, 3)\n\tNode.new().set(key, 1)\n', {}, 3)).toEqual([])
  })
})

describe("names the policy tables do not list", () => {
  it("JavaScript's own property names (valueOf, constructor, …) are ordinary method names (the GDScript fuzz test found `valueOf(`)", () => {
    for (const name of Object.getOwnPropertyNames(Object.prototype)) {
      for (const grammar of [3, 4] as const) {
        expect(hitsIn(fn3(`${name}(1)`, `x.${name}(1)`, `File.new().${name}("/x")`, `ResourceLoader.call("${name}", "user://x")`), {}, grammar), name).toEqual([])
      }
    }
  })
})

describe("look-alikes stay free of findings", () => {
  it("your own execute and source_code, reached directly or by dispatch on self", () => {
    expect(hitsIn('extends Node\nvar source_code = ""\nfunc _ready():\n\tcall_deferred("execute")\n\tconnect("ready", self, "execute")\n\tfuncref(self, "execute").call_func()\n\tsource_code = "x"\n\tself["source_code"] = "y"\n\tset("source_code", "z")\nfunc execute():\n\tpass\n', {}, 3)).toEqual([])
  })

  it("commands and enemies of unknown type calling execute, kill or save: the pack's own classes define them, so at most a warning", () => {
    const classes = { "res://command.gd": "extends Reference\nclass_name Command\nfunc execute():\n\tpass\n", "res://enemy.gd": "extends Node\nclass_name Enemy\nfunc kill():\n\tpass\n" }
    expect(hitsIn("extends Node\nvar commands = []\nfunc _ready():\n\tfor c in commands:\n\t\tc.execute()\n\t\tc.kill()\n\tcommands[0].save()\n", classes, 3).map((h) => h.split(" ").slice(0, 3).join(" "))).toEqual([
      "5:3 warning os-process",
      "6:3 warning os-kill",
    ])
  })

  it("save data in user:// through JSON (ConfigFile only written there), and Tween/Thread on self", () => {
    const source = [
      "extends Node",
      'const SAVE = "user://save.cfg"',
      "func save_game(d):",
      "\tvar c = ConfigFile.new()",
      '\tc.set_value("a", "b", d)',
      "\tc.save(SAVE)",
      '\tc.load("res://defaults.cfg")',
      "\tvar f = File.new()",
      '\tf.open("user://save.json", File.WRITE)',
      "\tf.store_string(to_json(d))",
      "\tf.close()",
      "\tvar v = parse_json(f.get_as_text())",
      "\tvar x = f.get_var()",
      "\tvar tw = Tween.new()",
      '\ttw.interpolate_property(self, "position", Vector2(), Vector2(1, 1), 1.0)',
      '\ttw.interpolate_callback(self, 1.0, "save_game", {})',
      "\tvar t = Thread.new()",
      '\tt.start(self, "save_game", {})',
    ].join("\n")
    expect(hitsIn(`${source}\n`, {}, 3)).toEqual([])
    // Reading the ConfigFile back from user:// builds the objects its text names: code from data.
    expect(hitsIn(`${source.replace('c.load("res://defaults.cfg")', "c.load(SAVE)")}\n`, {}, 3)).toEqual(['7:2 error config-file-objects ConfigFile.load("user://save.cfg")'])
  })
})
