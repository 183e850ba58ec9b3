// The banned-pattern matcher on GDScript source: what counts as a use, and what does not.
import { describe, expect, it } from "vitest"
import { tokenize } from "../../adapters/scanner/gdscript/lexer.ts"
import { matchPolicy } from "../../adapters/scanner/gdscript/matchPolicy.ts"
import { readScriptHeader } from "../../adapters/scanner/gdscript/scriptHeader.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { parsePolicy } from "../../adapters/scanner/policy/Policy.ts"

const hits = (source: string) => matchPolicy(tokenize(source), defaultPolicy).map((h) => `${h.line}:${h.column} ${h.severity} ${h.entry.id} ${h.matched}`)

describe("matchPolicy: not findings", () => {
  it("names in comments, doc comments and plain strings", () => {
    expect(hits('# OS.execute("x")\n## HTTPRequest docs\nvar s = "OS.execute and HTTPRequest"\nvar t = """\nExpression\n"""\nprint(\'str2var\')\n')).toEqual([])
  })

  it("a member that merely shares a banned name on another receiver", () => {
    expect(hits("player.kill()\nsettings.save()\ncommand.execute()\nobj.eval(1)\n")).toEqual([])
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

describe("matchPolicy: findings", () => {
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
      "5:9 error os-process",
      "6:1 error os-kill",
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
    expect(hits('self.call("kill")\nplayer.call("save")\nvar c = commands.get("execute")\nconfig.set("shell_open", 1)\n')).toEqual([])
    expect(hits('OS.get("execute")\n')).toEqual(['1:1 error os-process OS.get("execute")'])
    expect(hits('ProjectSettings.call("save")\n')).toEqual(['1:1 error project-settings-save ProjectSettings.call("save")'])
  })

  it("aliases of a banned singleton and singletons fetched by name", () => {
    expect(hits('var os = OS\nos.kill(1)\nEngine.get_singleton("OS").execute("x", [])\n')).toEqual([
      "2:1 error os-kill OS.kill",
      '3:1 error os-process OS.execute',
    ])
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
      '6:1 warning filesystem-outside-sandbox FileAccess.open("%s/save" …)',
      '8:1 error filesystem-outside-sandbox DirAccess.copy_absolute("/tmp/b")',
      '10:1 error filesystem-outside-sandbox DirAccess.rename("/b")',
      '11:1 error filesystem-outside-sandbox File.open("/x")',
      '13:2 error filesystem-outside-sandbox Directory.remove("/boot")',
    ])
  })

  it("arguments that cannot be proven false are warnings", () => {
    expect(hits("var v = f.get_var(allow)\n")).toEqual(["1:9 warning get-var-objects f.get_var(…)"])
  })
})

describe("lexer", () => {
  it("an unterminated single-line string ends at the line break, so what follows is still code", () => {
    expect(hits('var s = "oops\nOS.kill(1)\n')).toEqual(["2:1 error os-kill OS.kill"])
  })

  it("raw strings, escapes and line continuations keep line and column counting exact", () => {
    const tokens = tokenize('var a = r"C:\\dir\\x"\nvar b = "x\\\ny"\\\n\t+ "z"\nOS.kill(1)\n')
    expect(tokens.filter((t) => t.kind === "string").map((t) => [t.text, t.line])).toEqual([
      ["C:\\dir\\x", 1],
      ["xy", 2],
      ["z", 4],
    ])
    expect(tokens.find((t) => t.text === "OS")).toMatchObject({ line: 5, column: 1 })
  })
})

describe("readScriptHeader", () => {
  it("reads extends and class_name in both generations' spellings", () => {
    const header = (s: string) => {
      const h = readScriptHeader(tokenize(s))
      return [h.extendsTarget?._tag === "Class" ? h.extendsTarget.name : h.extendsTarget?._tag === "Path" ? h.extendsTarget.path : null, h.className]
    }
    expect(header("tool\nextends Node2D\nclass_name Foo, \"res://icon.png\"\n")).toEqual(["Node2D", "Foo"])
    expect(header("@tool\nclass_name Bar extends EngineGame\n")).toEqual(["EngineGame", "Bar"])
    expect(header('extends "res://base.gd"\n')).toEqual(["res://base.gd", null])
    expect(header("class Inner extends Node:\n\tpass\n")).toEqual([null, null])
    expect(header("extends Outer.Inner\n")).toEqual(["Outer.Inner", null])
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
    expect(matchPolicy(tokenize('print("x")\nOS.execute("y", [])\n'), parsed.policy).map((h) => [h.entry.id, h.severity, h.line])).toEqual([["no-print", "warning", 1]])
  })

  it("invalid policies are refused with a reason", () => {
    expect(parsePolicy("{")._tag).toBe("Invalid")
    const duplicate = { ...JSON.parse(JSON.stringify(defaultPolicy)), patterns: [defaultPolicy.patterns[0], defaultPolicy.patterns[0]] }
    expect(parsePolicy(JSON.stringify(duplicate))).toMatchObject({ _tag: "Invalid", problem: expect.stringContaining("appears twice") })
  })
})
