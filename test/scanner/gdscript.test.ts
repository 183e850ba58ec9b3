// The GDScript front end and analysis on source text: what counts as a use, and what does not.
import { describe, expect, it } from "vitest"
import { parseScript } from "../../adapters/scanner/gdscript/parser.ts"
import { headerOf } from "../../adapters/scanner/gdscript/scriptHeader.ts"
import { tokenize } from "../../adapters/scanner/gdscript/tokenizer.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { parsePolicy } from "../../adapters/scanner/policy/Policy.ts"
import { hitsIn, ids } from "./support/analyze.ts"

const hits = (source: string) => hitsIn(source)

describe("analysis: not findings", () => {
  it("names in comments, doc comments and plain strings", () => {
    expect(hits('# OS.execute("x")\n## HTTPRequest docs\nvar s = "OS.execute and HTTPRequest"\nvar t = """\nExpression\n"""\nprint(\'str2var\')\n')).toEqual([])
  })

  it("a member that merely shares a banned name on another receiver: nothing, or a warning where only the pack's classes can be meant", () => {
    expect(hits("settings.save()\nobj.eval(1)\n")).toEqual([])
    // kill and execute on an object that cannot be pinned down: a pack class defines them, so it may be one of those.
    const classes = { "res://player.gd": "extends Node\nclass_name Player\nfunc kill():\n\tpass\n", "res://command.gd": "extends Reference\nclass_name Command\nfunc execute():\n\tpass\n" }
    expect(hitsIn("player.kill()\ncommand.execute()\n", classes).map((h) => h.split(" ").slice(0, 3).join(" "))).toEqual(["1:1 warning os-kill", "2:1 warning os-process"])
  })

  it("the same name as a dictionary key string or a node path", () => {
    expect(hits('var d = {"execute": 1}\n$HTTPRequest.visible = false\nvar n = %Expression\n')).toEqual([])
  })

  it("res:// and user:// paths, and relative paths on an opened directory", () => {
    expect(hits('var f = FileAccess.open("user://save.dat", FileAccess.WRITE)\nvar d = DirAccess.open("user://")\nd.remove("old.sav")\nFileAccess.open("res://data.json", 1)\n')).toEqual([])
  })

  it("get_var() without true, and decode_var with false", () => {
    expect(hits("var a = peer.get_var()\nvar b = bytes.decode_var(0, false)\nvar c = f.get_var(false)\n")).toEqual([])
  })
})

describe("analysis: findings", () => {
  it("Godot 4 spellings", () => {
    expect(
      hits(
        [
          'OS.execute_with_pipe("sh", [])',
          'OS.create_instance(["--x"])',
          'OS.unset_environment("A")',
          'OS.move_to_trash("/home")',
          'OS.shell_show_in_file_manager("/")',
          'JavaScriptBridge.eval("1")',
          "var m = GDExtensionManager",
          "var p = ENetMultiplayerPeer.new()",
          "var w = WebSocketPeer.new()",
          "var v = bytes_to_var_with_objects(b)",
          'var s = str_to_var("")',
          "var x = bytes.decode_var(0, true)",
          "ProjectSettings.save_custom(\"user://p.godot\")",
          "var u = UDPServer.new()",
          "var t = TCPServer.new()",
        ].join("\n"),
      ),
    ).toEqual([
      "1:1 error os-process OS.execute_with_pipe",
      "2:1 error os-process OS.create_instance",
      "3:1 error os-environment OS.unset_environment",
      "4:1 error os-move-to-trash OS.move_to_trash",
      "5:1 error os-shell OS.shell_show_in_file_manager",
      "6:1 error javascript-bridge JavaScriptBridge",
      "7:9 error native-extension-loading GDExtensionManager",
      "8:9 error raw-networking ENetMultiplayerPeer",
      "9:9 error raw-networking WebSocketPeer",
      "10:9 error object-deserialization bytes_to_var_with_objects",
      "11:9 error object-deserialization str_to_var",
      "12:9 error decode-var-objects bytes.decode_var(…, true)",
      "13:1 error project-settings-save ProjectSettings.save_custom",
      "14:9 error raw-networking UDPServer",
      "15:9 error raw-networking TCPServer",
    ])
  })

  it("whatever branch the call sits in", () => {
    expect(hits('if Engine.is_editor_hint():\n\tOS.execute("x", [])\nif false:\n\tOS.kill(1)\n')).toEqual([
      "2:2 error os-process OS.execute",
      "4:2 error os-kill OS.kill",
    ])
  })

  it("dynamic dispatch with a literal name, also split, escaped or as a StringName", () => {
    expect(
      hits(
        [
          'call("execute", "ls")',
          'OS.call_deferred("kill", 1)',
          'callv(&"shell_open", ["x"])',
          'Callable(OS, "create_process").call()',
          'var c = funcref(OS, "execute")',
          'connect("pressed", OS, "kill")',
          'call("exe" + "cute")',
          'call("\\u0065xecute")',
          'get_tree().call_group("g", "execute")',
          'script.set("source_code", "x")',
          'ClassDB.instantiate("HTTPRequest")',
          'ClassDB.instance("Expression")',
          'Engine.get_singleton("JavaScriptBridge")',
        ].join("\n"),
      ).map((h) => h.split(" ").slice(0, 3).join(" ")),
    ).toEqual([
      "1:1 error os-process",
      "2:1 error os-kill",
      "3:1 error os-shell",
      "4:1 error os-process",
      // Godot 4 has no funcref and no connect(signal, target, method): OS is passed as a value there.
      "5:17 error dangerous-object-escape",
      "6:20 error dangerous-object-escape",
      "7:1 error os-process",
      "8:1 error os-process",
      "9:1 error os-process",
      "10:1 error script-source-code",
      "11:1 error raw-networking",
      "12:1 error expression",
      "13:1 error javascript-bridge",
    ])
  })

  it("generic names dispatch only on the banned receiver; get/set only on it too", () => {
    expect(hits('player.call("save")\nvar c = commands.get("execute")\nconfig.set("shell_open", 1)\n')).toEqual([])
    // On self, a name neither the class nor its engine base has may be the method of an engine object of a subclass
    // of the base the script is attached to (scriptAttach.test.ts): no Node has kill(); a RefCounted (a Tween) may.
    expect(hits('extends Node\nfunc f():\n\tself.call("kill")\n')).toEqual([])
    expect(hits('self.call("kill")\n')).toEqual(['1:1 error os-kill call("kill")'])
    expect(hits('OS.get("execute")\n')).toEqual(['1:1 error os-process OS.get("execute")'])
    expect(hits('ProjectSettings.call("save")\n')).toEqual(['1:1 error project-settings-save ProjectSettings.call("save")'])
  })

  it("aliases of a banned singleton are errors where they escape, and singletons fetched by name are OS itself", () => {
    // A member that held OS may hold it wherever it is used: its calls count as calls on OS too.
    expect(hits('var os = OS\nos.kill(1)\nEngine.get_singleton("OS").execute("x", [])\n')).toEqual([
      "1:10 error dangerous-object-escape OS",
      "2:1 error os-kill os.kill",
      "3:1 error os-process OS.execute",
    ])
    expect(hits("func f():\n\tvar os = OS\n\tos.kill(1)\n")).toEqual(["2:11 error dangerous-object-escape OS", "3:2 error os-kill OS.kill"])
  })

  it("file system: absolute, drive, other-scheme and climbing paths are errors; computed paths warnings", () => {
    expect(
      hits(
        [
          'FileAccess.open("/etc/passwd", FileAccess.READ)',
          'DirAccess.make_dir_absolute("C:/games")',
          'FileAccess.get_file_as_string("file:///etc/hosts")',
          'FileAccess.open("user://../../etc/x", 1)',
          "FileAccess.open(path, FileAccess.READ)",
          'FileAccess.open("%s/save" % dir, 1)',
          'FileAccess.open("user://" + name, 1)',
          'DirAccess.copy_absolute("res://a", "/tmp/b")',
          'var d := DirAccess.open("user://")',
          'd.rename("a", "/b")',
          'File.new().open("/x", File.READ)',
          "func save(dir: Directory):",
          '\tdir.remove("/boot")',
        ].join("\n"),
      ),
    ).toEqual([
      '1:1 error filesystem-outside-sandbox FileAccess.open("/etc/passwd")',
      '2:1 error filesystem-outside-sandbox DirAccess.make_dir_absolute("C:/games")',
      '3:1 error filesystem-outside-sandbox FileAccess.get_file_as_string("file:///etc/hosts")',
      '4:1 error filesystem-outside-sandbox FileAccess.open("user://../../etc/x")',
      "5:1 warning filesystem-outside-sandbox FileAccess.open(…)",
      "6:1 warning filesystem-outside-sandbox FileAccess.open(…)",
      '8:1 error filesystem-outside-sandbox DirAccess.copy_absolute("/tmp/b")',
      '10:1 error filesystem-outside-sandbox DirAccess.rename("/b")',
      '11:1 error filesystem-outside-sandbox File.open("/x")',
      '13:2 error filesystem-outside-sandbox Directory.remove("/boot")',
    ])
  })

  it("decode flags that cannot be proven false are errors; comparisons and `not` of constants are folded", () => {
    expect(hits("var v = f.get_var(allow)\n")).toEqual(["1:9 error get-var-objects f.get_var(…)"])
    expect(hits("var v = f.get_var(1 == 1)\nvar w = bytes2var(b, not false)\nvar x = bytes2var(b, false == false)\nvar y = f.get_var(1)\n")).toEqual([
      "1:9 error get-var-objects f.get_var(true)",
      "2:9 error decode-var-objects bytes2var(…, true)",
      "3:9 error decode-var-objects bytes2var(…, true)",
      "4:9 error get-var-objects f.get_var(true)",
    ])
    expect(hits("var v = f.get_var(1 != 1)\nvar w = bytes2var(b, not true)\nvar x = bytes2var(b, 0)\nvar y = f.get_var(false and allow)\nvar z = bytes2var(b)\n")).toEqual([])
  })
})

describe("tokenizer", () => {
  it("Godot 3 ends a one-line string at the line break (the engine rejects it), so what follows is still code", () => {
    expect(hitsIn('func f():\n\tvar s = "oops\n\tOS.kill(1)\n', {}, 3)).toEqual(["3:2 error os-kill OS.kill"])
  })

  it("raw strings, escapes and line continuations keep line and column counting exact (Godot 4)", () => {
    const tokens = tokenize('var a = r"C:\\dir\\x"\nvar b = "x\\\ny"\\\n\t+ "z"\nOS.kill(1)\n', 4)
    expect(tokens.filter((t) => t.kind === "str").map((t) => [t.text, t.line])).toEqual([
      ["C:\\dir\\x", 1],
      ["xy", 2],
      ["z", 4],
    ])
    expect(tokens.find((t) => t.text === "OS")).toMatchObject({ line: 5, column: 1 })
  })

  it("each grammar's string forms: ''' is multi-line only in Godot 4, & ^ r prefixes only in 4, @\"\" only in 3", () => {
    const strings = (source: string, grammar: 3 | 4) =>
      tokenize(source, grammar)
        .filter((t) => t.kind === "str")
        .map((t) => `${t.flavor ?? ""}${t.text}`)
    expect(strings("x('''a''')", 4)).toEqual(["a"])
    expect(strings("x('''a''')", 3)).toEqual(["", "a", ""])
    expect(strings('x(&"a", ^"b", r"c\\d")', 4)).toEqual(["&a", "^b", "rc\\d"])
    expect(strings('x(@"a/b")', 3)).toEqual(["@a/b"])
  })

  it("numbers end where each engine ends them (a hundred-and-twenty-eighth red team's `0b1and`, `1e0-1`, `1.e5`)", () => {
    const numbers = (source: string, grammar: 3 | 4) =>
      tokenize(source, grammar)
        .filter((t) => t.kind !== "nl" && t.kind !== "eof")
        .map((t) => `${t.kind}:${t.text}`)
    // Godot 3: after 0b only digits, so `and` is the operator; after an exponent one sign more is the number's (its value is 1.0).
    expect(numbers("0b1and x", 3)).toEqual(["num:0b1", "id:and", "id:x"])
    expect(numbers("a[1e0-1]", 3)).toEqual(["id:a", "op:[", "num:1e0-1", "op:]"])
    expect(numbers("1e-5-3", 3)).toEqual(["num:1e-5", "op:-", "num:3"])
    expect(numbers("0x1e+1", 3)).toEqual(["num:0x1e", "op:+", "num:1"])
    expect(numbers("1.e5", 3)).toEqual(["num:1.e5"])
    // Godot 4: a binary number takes 0 and 1 only; the sign only right after the exponent's letter.
    expect(numbers("0b12", 4)).toEqual(["num:0b1", "num:2"])
    expect(numbers("1e0-1", 4)).toEqual(["num:1e0", "op:-", "num:1"])
    expect(numbers("1.e5", 4)).toEqual(["num:1.e5"])
    expect(numbers("1..2", 4)).toEqual(["num:1", "op:..", "num:2"])
  })

  it("a number the scanner cannot value exactly is no known index: `names[1e0-1]` may be any item", () => {
    const source = ["extends Node", 'const NAMES = ["get_name", "execute"]', "func _ready():", '\tOS.call(NAMES[1e0-1], "touch", ["/tmp/x"])', ""].join("\n")
    expect(hitsIn(source, {}, 3).filter((h) => h.includes(" error "))).toEqual(['4:2 error os-process OS.call("execute")'])
  })
})

describe("parser", () => {
  it("reads extends and class_name in both generations' spellings", () => {
    const header = (s: string, grammar: 3 | 4 = 4) => {
      const h = headerOf(parseScript(s, grammar))
      return [h.extendsTarget?._tag === "Class" ? h.extendsTarget.name : h.extendsTarget?._tag === "Path" ? h.extendsTarget.path : null, h.className]
    }
    expect(header('tool\nextends Node2D\nclass_name Foo, "res://icon.png"\n', 3)).toEqual(["Node2D", "Foo"])
    expect(header("@tool\nclass_name Bar extends EngineGame\n")).toEqual(["EngineGame", "Bar"])
    expect(header('extends "res://base.gd"\n')).toEqual(["res://base.gd", null])
    expect(header("class Inner extends Node:\n\tpass\n")).toEqual([null, null])
    expect(header("extends Outer.Inner\n")).toEqual(["Outer.Inner", null])
  })

  it("node paths are get_node, not identifiers: $OS, %OS and $A/OS call a node's method (a node is never a singleton)", () => {
    expect(hitsIn("func f():\n\t$OS.execute()\n\t%OS.kill(1)\n\t$A/OS.shell_open()\n\tvar x = 5 % OS.get_name().length()\n")).toEqual([])
  })

  it("parentheses, line continuations and multi-line expressions do not hide the receiver", () => {
    expect(ids(hitsIn('func f():\n\t(OS).execute("a", [])\n\tOS \\\n\t\t.kill(1)\n\tvar x = [\n\t\tOS\n\t]\n'))).toEqual([
      "os-process",
      "os-kill",
      "dangerous-object-escape",
    ])
  })

  it("a lambda in a call's arguments is read with its body (Godot 4)", () => {
    expect(hitsIn('func f():\n\tb.pressed.connect(func():\n\t\tOS.execute("x", [])\n\t)\n\tprint(1)\n')).toEqual(["3:3 error os-process OS.execute"])
  })

  it("nesting deeper than the parser follows marks the script, and never overflows the stack", () => {
    expect(parseScript(`var x = ${"(".repeat(5000)}1${")".repeat(5000)}\n`, 4).tooDeep).toBe(true)
    expect(parseScript(`var x = ${"(".repeat(50)}1${")".repeat(50)}\n`, 4).tooDeep).toBe(false)
  })
})

describe("policy", () => {
  it("the shipped policy decodes with the Policy schema unchanged", () => {
    expect(parsePolicy(JSON.stringify(defaultPolicy))).toEqual({ _tag: "Policy", policy: defaultPolicy })
  })

  it("the shipped policy is valid and every pattern has a docs anchor in docs/scanner.md", async () => {
    const { readFile } = await import("node:fs/promises")
    const docs = await readFile(new URL("../../docs/scanner.md", import.meta.url), "utf8")
    for (const p of defaultPolicy.patterns) {
      expect(p.docs).toMatch(/^docs\/scanner\.md#[a-z0-9-]+$/)
      expect(docs).toContain(`<a id="${p.docs.split("#")[1]}"></a>`)
    }
  })

  it("docs/scanner.md lists every entry of the generated dispatch table", async () => {
    const { readFile } = await import("node:fs/promises")
    const docs = await readFile(new URL("../../docs/scanner.md", import.meta.url), "utf8")
    const table = JSON.parse(await readFile(new URL("../../adapters/scanner/gdscript/engine-dispatch.json", import.meta.url), "utf8")) as Record<string, ReadonlyArray<{ class: string; method: string }>>
    const missing = Object.values(table).flat().map((e) => `\`${e.class}.${e.method}\``).filter((api) => !docs.includes(`| ${api} |`))
    expect(missing).toEqual([])
  })

  it("visual-script names every class of the visual_script module, as the generated class list has them", async () => {
    const { readFile } = await import("node:fs/promises")
    const classes = JSON.parse(await readFile(new URL("../../adapters/scanner/gdscript/engine-classes.json", import.meta.url), "utf8")) as Record<string, ReadonlyArray<string>>
    const module = [...new Set(Object.values(classes).flat().filter((c) => c.startsWith("VisualScript")))].sort()
    const pattern = defaultPolicy.patterns.find((p) => p.id === "visual-script")
    expect(module.length).toBeGreaterThan(40)
    expect(pattern?.match).toEqual({ kind: "identifier", names: module })
  })

  it("an operator's policy replaces the shipped one", () => {
    const parsed = parsePolicy(
      JSON.stringify({
        version: "site-1",
        reservedPaths: ["vendor/"],
        nativeExtensions: [".so"],
        dispatchers: [],
        patterns: [{ id: "no-print", pattern: "print", rationale: "Noise.", severity: "warning", docs: "docs/scanner.md#policy", match: { kind: "identifier", names: ["print"] } }],
      }),
    )
    if (parsed._tag !== "Policy") throw new Error(parsed.problem)
    expect(hitsIn('print("x")\nOS.execute("y", [])\n', {}, 4, parsed.policy)).toEqual(["1:1 warning no-print print"])
  })

  it("invalid policies are refused with a reason", () => {
    expect(parsePolicy("{")._tag).toBe("Invalid")
    const duplicate = { ...JSON.parse(JSON.stringify(defaultPolicy)), patterns: [defaultPolicy.patterns[0], defaultPolicy.patterns[0]] }
    expect(parsePolicy(JSON.stringify(duplicate))).toMatchObject({ _tag: "Invalid", problem: expect.stringContaining("appears twice") })
  })
})

describe("capability model", () => {
  it("dispatch APIs of the engine's class reference, Godot 3: Tween, Thread, UndoRedo, FuncRef, JSONRPC", () => {
    const found = hitsIn(
      [
        "func f(obj, name):",
        '\tTween.new().interpolate_callback(OS, 0.1, "execute", "x", [])', // 2
        '\tThread.new().start(OS, "kill")', // 3
        '\tUndoRedo.new().add_do_method(obj, name)', // 4
        "\tvar fr = FuncRef.new()", // 5
        "\tfr.function = name", // 6
        "\tJSONRPC.new().set_scope(\"x\", obj)", // 7
        "\tTimer.new().start(1.0)", // 8: another class's start, not a dispatch
      ].join("\n"),
      {},
      3,
    )
    expect(found).toEqual([
      '2:2 error os-process interpolate_callback("execute")',
      '3:2 error os-kill start("kill")',
      "4:2 error dynamic-dispatch add_do_method(…)",
      "6:2 error dynamic-dispatch FuncRef.function =(…)",
      "7:2 error dynamic-dispatch JSONRPC.set_scope(…)",
    ])
  })

  it("a name that is not constant is fine on your own object, an error on anything else", () => {
    expect(hitsIn("func f(name):\n\tcall(name)\n\tself.callv(name, [])\n\tMine.new().call(name)\n", { "res://mine.gd": "class_name Mine\n" })).toEqual([])
    expect(ids(hitsIn("func f(obj, name):\n\tobj.call(name)\n\tOS.call(name)\n\tvar c = OS.call\n"))).toEqual(["dynamic-dispatch", "dynamic-dispatch", "dynamic-dispatch"])
  })

  it("a variable that aliased OS in one function does not taint the same name in another", () => {
    const player = { "res://player.gd": "extends Node\nclass_name Player\nfunc kill():\n\tpass\n" }
    expect(hitsIn("func a():\n\tvar os = OS\nfunc b(player):\n\tvar os = player\n\tos.kill()\n", player).map((h) => h.split(" ").slice(0, 3).join(" "))).toEqual(["2:11 error dangerous-object-escape", "5:2 warning os-kill"])
  })

  it("source_code on your own class (a programming game) is fine; on anything else, by any spelling, an error", () => {
    expect(hitsIn('var source_code = ""\nfunc f():\n\tsource_code = "x"\n\tself.source_code = "y"\n\tset("source_code", "z")\n')).toEqual([])
    expect(ids(hitsIn('func f(s):\n\ts.source_code = "x"\n\ts["source_code"] = "y"\n\ts.set("source_code", "z")\n\ts.set_source_code("w")\n'))).toEqual([
      "script-source-code",
      "script-source-code",
      "script-source-code",
      "script-source-code",
    ])
  })

  it("run-time loading: res:// literals are fine, res:// built at run time a warning, user://, absolute or read-from-a-file paths errors", () => {
    expect(
      hitsIn(
        [
          "func f(name, f):",
          '\tload("res://a.tscn")', // 2
          '\tload("res://levels/" + name + ".tscn")', // 3
          '\tload("user://save.tres")', // 4
          '\tResourceLoader.load("/tmp/x.tres")', // 5
          "\tload(f.get_line())", // 6
          "\tget_tree().change_scene_to_file(name)", // 7
          "\tset_script(name)", // 8
          "\tvar o = dict_to_inst(name)", // 9
          "\tpeer.allow_object_decoding = true", // 10
        ].join("\n"),
      ).map((h) => h.split(" ").slice(0, 3).join(" ")),
    ).toEqual([
      "3:7 warning runtime-code-loading",
      "4:7 error runtime-code-loading",
      "5:22 error runtime-code-loading",
      "6:7 error runtime-code-loading",
      "7:34 warning runtime-code-loading",
      "8:2 warning runtime-code-loading",
      "9:10 error runtime-code-loading",
      "10:2 error object-decoding-flag",
    ])
  })
})
