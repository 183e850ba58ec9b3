// Property-based: a banned call rewritten through random combinations of evasion shapes (alias
// chains, parentheses, line continuations, constants in another script, dispatch APIs, split names,
// objects fetched through instance_from_id or a dispatched get_singleton, passed to a function or
// returned from another script) is still an error; path, load and decode rules hold through
// constant-name dispatch and folded flags; the creator's own methods renamed to banned names are
// never flagged. Pure analysis on source text: no engine runs here.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hitsIn, ids } from "./support/analyze.ts"

type Grammar = 3 | 4

/** How the receiver OS is written: directly, parenthesised, continued, fetched by a constant name, through locals. */
const receiverShape = fc.constantFrom(
  (_g: Grammar) => ({ pre: [] as Array<string>, expr: "OS" }),
  (_g: Grammar) => ({ pre: [], expr: "(OS)" }),
  (_g: Grammar) => ({ pre: [], expr: "(\n\t\tOS\n\t)" }),
  (_g: Grammar) => ({ pre: [], expr: 'Engine.get_singleton("OS")' }),
  (_g: Grammar) => ({ pre: [], expr: "Engine.get_singleton(K.SINGLETON)" }),
  (_g: Grammar) => ({ pre: [], expr: 'Engine.get_singleton("O" + "S")' }),
  (_g: Grammar) => ({ pre: ["\tvar a = OS"], expr: "a" }),
  (_g: Grammar) => ({ pre: ["\tvar a = OS", "\tvar b = a"], expr: "b" }),
  (_g: Grammar) => ({ pre: ["\tvar a = (OS if true else OS)"], expr: "a" }),
  (_g: Grammar) => ({ pre: [], expr: "instance_from_id(OS.get_instance_id())" }),
  (_g: Grammar) => ({ pre: ["\tvar id = OS.get_instance_id()", "\tvar a = instance_from_id(id)"], expr: "a" }),
  (_g: Grammar) => ({ pre: [], expr: 'Engine.call("get_singleton", "OS")' }),
  (_g: Grammar) => ({ pre: [], expr: 'Engine.callv("get_singleton", [K.SINGLETON])' }),
  (g: Grammar) => ({ pre: [], expr: g === 3 ? 'funcref(Engine, "get_singleton").call_func("OS")' : 'Callable(Engine, "get_singleton").call("OS")' }),
  (g: Grammar) => ({ pre: [], expr: g === 3 ? 'ClassDB.call("instance", "_OS")' : 'Engine.call("get_singleton", "O" + "S")' }),
)

/** Where the call is written: in place, in a function the receiver is passed to, on what another script's function returns. */
const placeShape = fc.constantFrom("direct", "parameter", "returned")

/** How the method name is written. */
const nameShape = fc.constantFrom('"execute"', '"exe" + "cute"', "K.METHOD", '"%s%s" % ["exe", "cute"]', "str(\"exe\", \"cute\")", "LOCAL_NAME")

/** How the call is made. */
const callShape = fc.constantFrom(
  (recv: string, name: string, _g: Grammar) => (name === '"execute"' ? `${recv}.execute("touch", [m])` : `${recv}.call(${name}, "touch", [m])`),
  (recv: string, name: string, _g: Grammar) => `${recv}.call(${name}, "touch", [m])`,
  (recv: string, name: string, _g: Grammar) => `${recv}.callv(${name}, ["touch", [m]])`,
  (recv: string, name: string, _g: Grammar) => `${recv}.call_deferred(${name}, "touch", [m])`,
  (recv: string, name: string, g: Grammar) => (g === 3 ? `funcref(${recv}, ${name}).call_func("touch", [m])` : `Callable(${recv}, ${name}).call("touch", [m])`),
  (recv: string, name: string, g: Grammar) => (g === 3 ? `UndoRedo.new().add_do_method(${recv}, ${name}, "touch", [m])` : `call("call", "call", ${name})`),
  (recv: string, name: string, _g: Grammar) => `${recv}.call("call", ${name}, "touch", [m])`,
  (recv: string, name: string, _g: Grammar) => `${recv} \\\n\t\t.call(${name}, "touch", [m])`,
)

const CONSTANTS = 'extends Reference\nconst SINGLETON = "O" + "S"\nconst METHOD = "exe" + "cute"\n'

const ERROR_IDS = new Set(["os-process", "dangerous-object-escape", "dynamic-dispatch"])

describe("evasion shapes (property)", () => {
  it("a banned call through any combination of shapes is still an error", () => {
    fc.assert(
      fc.property(receiverShape, nameShape, callShape, placeShape, fc.constantFrom(3 as const, 4 as const), (receiver, name, call, place, grammar) => {
        const r = receiver(grammar)
        const names = ['\tvar m = "x"', '\tvar LOCAL_NAME = "exe"', '\tLOCAL_NAME = "execute"']
        const ready = ["extends Node", 'const K = preload("res://k.gd")', "func _ready():", ...names]
        const source =
          place === "direct"
            ? [...ready, ...r.pre, `\t${call(r.expr, name, grammar)}`]
            : place === "parameter"
              ? [...ready, ...r.pre, `\thelper(${r.expr})`, "func helper(t):", ...names, `\t${call("t", name, grammar)}`]
              : [...ready, '\tvar got = preload("res://r.gd").get_o()', `\t${call("got", name, grammar)}`]
        const returning = ["extends Reference", 'const K = preload("res://k.gd")', "static func get_o():", ...r.pre, `\treturn ${r.expr}`].join("\n")
        const found = hitsIn(`${source.join("\n")}\n`, { "res://k.gd": CONSTANTS, "res://r.gd": `${returning}\n` }, grammar)
        const errors = found.filter((h) => h.split(" ")[1] === "error" && ERROR_IDS.has(h.split(" ")[2] ?? ""))
        expect(errors, source.join("\n")).not.toEqual([])
      }),
      { numRuns: 600 },
    )
  })

  it("path, load and decode rules hold when the call is made by a constant name, with the value in a constant, a member or a parameter", () => {
    /** A call judged by its arguments: receiver, method, arguments (one of them `$V`), the policy id it must raise. */
    const target = fc.constantFrom(
      { recv: "Directory.new()", method: "remove", args: ["$V"], value: '"/etc/x"', id: "filesystem-outside-sandbox" },
      { recv: "File.new()", method: "open", args: ["$V", "File.READ"], value: '"/etc/passwd"', id: "filesystem-outside-sandbox" },
      { recv: "ResourceLoader", method: "load", args: ["$V"], value: '"user://mod.gd"', id: "runtime-code-loading" },
      { recv: "Marshalls", method: "base64_to_variant", args: ['"x"', "$V"], value: "true", id: "base64-to-variant-objects" },
      { recv: "File.new()", method: "get_var", args: ["$V"], value: "1 == 1", id: "get-var-objects" },
    )
    const dispatch = fc.constantFrom(
      (recv: string, method: string, args: ReadonlyArray<string>, _g: Grammar) => `${recv}.${method}(${args.join(", ")})`,
      (recv: string, method: string, args: ReadonlyArray<string>, _g: Grammar) => `${recv}.call("${method}", ${args.join(", ")})`,
      (recv: string, method: string, args: ReadonlyArray<string>, _g: Grammar) => `${recv}.callv(K.METHOD, [${args.join(", ")}])`,
      (recv: string, method: string, args: ReadonlyArray<string>, _g: Grammar) => `${recv}.call_deferred("${method.slice(0, 2)}" + "${method.slice(2)}", ${args.join(", ")})`,
      (recv: string, method: string, args: ReadonlyArray<string>, g: Grammar) => (g === 3 ? `funcref(${recv}, "${method}").call_func(${args.join(", ")})` : `Callable(${recv}, "${method}").call(${args.join(", ")})`),
      (recv: string, method: string, args: ReadonlyArray<string>, g: Grammar) => (g === 3 ? `UndoRedo.new().add_do_method(${recv}, "${method}", ${args.join(", ")})` : `${recv}.call("call", "${method}", ${args.join(", ")})`),
    )
    const holder = fc.constantFrom("literal", "constant", "member", "parameter")
    fc.assert(
      fc.property(target, dispatch, holder, fc.constantFrom(3 as const, 4 as const), (t, how, hold, grammar) => {
        const v = hold === "literal" ? t.value : hold === "constant" ? "K.VALUE" : hold === "member" ? "held" : "p"
        const call = how(t.recv, t.method, t.args.map((a) => (a === "$V" ? v : a)), grammar)
        const source = ["extends Node", 'const K = preload("res://k.gd")', `var held = ${t.value}`, "func _ready():", `\tgo(${t.value})`, "func go(p):", `\t${call}`].join("\n")
        const constants = `extends Reference\nconst VALUE = ${t.value}\nconst METHOD = "${t.method}"\n`
        const found = hitsIn(`${source}\n`, { "res://k.gd": constants }, grammar)
        expect(found.filter((h) => h.split(" ")[1] === "error" && h.split(" ")[2] === t.id), source).not.toEqual([])
      }),
      { numRuns: 400 },
    )
  })

  it("decode flags: any constant expression the engine takes for true is an error, one it takes for false is not; anything else is an error", () => {
    const truthy = fc.constantFrom("true", "1", "1 == 1", "not false", "!false", "false == false", "2 > 1", "1 != 2", "true and true", "false or true", '"a" == "a"', "K.ON")
    const falsy = fc.constantFrom("false", "0", "1 == 2", "not true", "!true", "true == false", "1 > 2", "1 != 1", "false and x", "false or false", "K.OFF", "null")
    const call = fc.constantFrom(
      (flag: string) => ({ code: `f.get_var(${flag})`, id: "get-var-objects" }),
      (flag: string) => ({ code: `bytes2var(b, ${flag})`, id: "decode-var-objects" }),
      (flag: string) => ({ code: `Marshalls.base64_to_variant(s, ${flag})`, id: "base64-to-variant-objects" }),
      (flag: string) => ({ code: `f.call("get_var", ${flag})`, id: "get-var-objects" }),
    )
    const wrap = (code: string): string => `extends Node\nconst K = preload("res://k.gd")\nfunc _ready():\n\tvar f = File.new()\n\tvar b = PoolByteArray()\n\tvar s = ""\n\tvar x = randi()\n\tvar v = ${code}\n`
    const constants = { "res://k.gd": "extends Reference\nconst ON = (1 == 1)\nconst OFF = not ON\n" }
    fc.assert(
      fc.property(truthy, falsy, call, (on, off, make) => {
        const yes = make(on)
        expect(ids(hitsIn(wrap(yes.code), constants, 3)), yes.code).toContain(yes.id)
        const no = make(off)
        expect(hitsIn(wrap(no.code), constants, 3), no.code).toEqual([])
        const unknown = make("x")
        expect(hitsIn(wrap(unknown.code), constants, 3).filter((h) => h.includes(` error ${unknown.id} `)), unknown.code).not.toEqual([])
      }),
      { numRuns: 200 },
    )
  })

  it("a script's source_code written through any combination of property paths, names not constant, containers and animation keys is still an error", () => {
    /** How the property (path) is named: constant, built, folded or not. */
    const path = fc.constantFrom('"s:source_code"', '"s:source" + "_code"', '"{0}:source_code".format(["s"])', "P", '"s:" + "source_cod".insert(10, "e")', 'PoolStringArray(["s", "source_code"]).join(":")')
    /** How the write reaches set_indexed on self (or the script itself, in a container). */
    const write = fc.constantFrom(
      (p: string, _g: Grammar) => `set_indexed(${p}, V)`,
      (p: string, _g: Grammar) => `call("set_indexed", ${p}, V)`,
      (p: string, _g: Grammar) => `call(M, ${p}, V)`,
      (p: string, _g: Grammar) => `callv(M, [${p}, V])`,
      (p: string, _g: Grammar) => `propagate_call(M, [${p}, V])`,
      (p: string, _g: Grammar) => `call("call", M, ${p}, V)`,
      (p: string, _g: Grammar) => `Animation.new().track_insert_key(0, 0.1, {"method": M, "args": [${p}, V]})`,
      (p: string, _g: Grammar) => `Animation.new().track_set_path(0, ".:" + ${p})`,
      (_p: string, g: Grammar) => (g === 3 ? 'connect("go", self, M)' : "go.connect(Callable(self, M))"),
      (_p: string, _g: Grammar) => `[s][0].set(K, V)`,
      (_p: string, _g: Grammar) => `{"a": s}["a"][K] = V`,
    )
    const method = fc.constantFrom('"set_indexed"', '"set_" + "indexed"', '"set_{0}".format(["indexed"])', "name")
    const key = fc.constantFrom('"source_code"', '"source_{0}".format(["code"])', "name")
    fc.assert(
      fc.property(path, write, method, key, fc.constantFrom(3 as const, 4 as const), (p, how, m, k, grammar) => {
        const source = ["extends Node", "var s = load(\"res://blank.gd\").duplicate()", "signal go", 'const V = "extends Reference"', `const P = "s:source_code"`, "func _ready():", `\tvar M = ${m}`, `\tvar K = ${k}`, `\t${how(p, grammar)}`].join("\n")
        const found = hitsIn(`${source}\n`, { "res://blank.gd": "extends Reference\n" }, grammar)
        expect(found.filter((h) => h.startsWith("9:") && h.split(" ")[1] === "error" && ["script-source-code", "dynamic-dispatch"].includes(h.split(" ")[2] ?? "")), source).not.toEqual([])
      }),
      { numRuns: 250 },
    )
  })

  it("names that are not constant on your own object or a node, with harmless arguments, are never flagged", () => {
    const call = fc.constantFrom(
      (n: string, _g: Grammar) => `call(${n})`,
      (n: string, _g: Grammar) => `call_deferred(${n}, 1)`,
      (n: string, _g: Grammar) => `$Player.call(${n}, 2.5)`,
      (n: string, _g: Grammar) => `get_parent().callv(${n}, [])`,
      (n: string, _g: Grammar) => `get_tree().call_group("enemies", ${n})`,
      (n: string, g: Grammar) => (g === 3 ? `$Button.connect("pressed", self, "_on_" + ${n})` : `$Button.pressed.connect(Callable(self, "_on_" + ${n}))`),
      (n: string, _g: Grammar) => `propagate_call(${n}, [])`,
    )
    const name = fc.constantFrom("action", '"do_" + action', "ACTIONS[0]", "str(action)")
    fc.assert(
      fc.property(call, name, fc.constantFrom(3 as const, 4 as const), (how, n, grammar) => {
        const source = ["extends Node", 'const ACTIONS = ["jump", "run"]', "func act(action):", `\t${how(n, grammar)}`].join("\n")
        expect(hitsIn(`${source}\n`, {}, grammar), source).toEqual([])
      }),
      { numRuns: 200 },
    )
  })

  it("the creator's own methods named like banned ones, dispatched on self or an own instance, are never flagged", () => {
    const banned = fc.constantFrom("execute", "kill", "shell_open", "create_process", "set_environment", "move_to_trash", "load_resource_pack", "resolve_hostname")
    const dispatch = fc.constantFrom(
      (n: string, _g: Grammar) => `${n}()`,
      (n: string, _g: Grammar) => `self.${n}()`,
      (n: string, _g: Grammar) => `call("${n}")`,
      (n: string, _g: Grammar) => `call_deferred("${n}")`,
      (n: string, _g: Grammar) => `callv("${n}", [])`,
      (n: string, g: Grammar) => (g === 3 ? `connect("ready", self, "${n}")` : `ready.connect(${n})`),
      (n: string, g: Grammar) => (g === 3 ? `funcref(self, "${n}").call_func()` : `Callable(self, "${n}").call()`),
      (n: string, _g: Grammar) => `Mine.new().call("${n}")`,
      (n: string, _g: Grammar) => `var h = Mine.new()\n\th.${n}()`,
      (n: string, _g: Grammar) => `var method = "${n}"\n\tcall(method)`,
      (n: string, _g: Grammar) => `(instance_from_id(get_instance_id()) as Mine).${n}()`,
      (n: string, _g: Grammar) => `var t = Thread.new()\n\tt.start(self, "${n}")`,
    )
    fc.assert(
      fc.property(banned, dispatch, fc.constantFrom(3 as const, 4 as const), (name, how, grammar) => {
        const source = ["extends Node", 'const Mine = preload("res://mine.gd")', "func _ready():", `\t${how(name, grammar)}`, "", `func ${name}():`, "\tpass"].join("\n")
        const mine = `extends Reference\nfunc ${name}():\n\tpass\n`
        expect(hitsIn(`${source}\n`, { "res://mine.gd": mine }, grammar), source).toEqual([])
      }),
      { numRuns: 300 },
    )
  })
})
