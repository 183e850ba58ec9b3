// Property-based: a banned call rewritten through random combinations of evasion shapes (alias
// chains, parentheses, line continuations, constants in another script, dispatch APIs, split names)
// is still an error; the creator's own methods renamed to banned names are never flagged.
// Pure analysis on source text: no engine runs here.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hitsIn } from "./support/analyze.ts"

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
)

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
      fc.property(receiverShape, nameShape, callShape, fc.constantFrom(3 as const, 4 as const), (receiver, name, call, grammar) => {
        const r = receiver(grammar)
        const source = [
          "extends Node",
          'const K = preload("res://k.gd")',
          "func _ready():",
          '\tvar m = "x"',
          '\tvar LOCAL_NAME = "exe"',
          '\tLOCAL_NAME = "execute"',
          ...r.pre,
          `\t${call(r.expr, name, grammar)}`,
        ].join("\n")
        const found = hitsIn(`${source}\n`, { "res://k.gd": CONSTANTS }, grammar)
        const errors = found.filter((h) => h.split(" ")[1] === "error" && ERROR_IDS.has(h.split(" ")[2] ?? ""))
        expect(errors, source).not.toEqual([])
      }),
      { numRuns: 400 },
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
