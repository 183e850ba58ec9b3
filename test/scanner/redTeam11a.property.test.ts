// Property-based, for what an eleventh red team got past pckgate-scanner/11 (attackProjects22.ts holds the packs
// the engine ran): a class of the pack that extends an engine class is that class for every method it does not
// define itself. Whatever the engine class, method, path, call shape (on an instance, on self bare or through
// `self.`, by call, callv or a folded name) and grammar, the findings and capabilities are those of the same code
// on `Base.new()`. Pure analysis on source text.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { analyzeScript } from "../../adapters/scanner/gdscript/analyzeScript.ts"
import { isGlobalFunction } from "../../adapters/scanner/gdscript/engineClasses.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { modelOf, packOf } from "./support/analyze.ts"

type Grammar = 3 | 4

/** Engine classes a pack may extend, with a method taking a path (or text) first, by grammar. */
const BASES: ReadonlyArray<{ readonly cls: Readonly<Record<Grammar, string>>; readonly method: string }> = [
  { cls: { 3: "ConfigFile", 4: "ConfigFile" }, method: "save" },
  { cls: { 3: "ConfigFile", 4: "ConfigFile" }, method: "load" },
  { cls: { 3: "ConfigFile", 4: "ConfigFile" }, method: "parse" },
  { cls: { 3: "PCKPacker", 4: "PCKPacker" }, method: "pck_start" },
  { cls: { 3: "AudioStreamSample", 4: "AudioStreamWAV" }, method: "save_to_wav" },
  { cls: { 3: "CryptoKey", 4: "CryptoKey" }, method: "save" },
  { cls: { 3: "CryptoKey", 4: "CryptoKey" }, method: "load" },
  { cls: { 3: "XMLParser", 4: "XMLParser" }, method: "open" },
  { cls: { 3: "X509Certificate", 4: "X509Certificate" }, method: "save" },
]

const ARGS = ['"/tmp/x"', '"user://a.cfg"', '"res://main.gd"', 'OS.get_environment("HOME")', '"user://" + OS.get_environment("HOME")', '"[a]\\nb=1"']

/** A call of `m` with `arg` on the object `o` (the engine's or the pack's) or, for the self shapes, inside a function of the pack class. */
const SHAPES: Readonly<Record<string, { readonly self: boolean; readonly call: (m: string, arg: string, o: string) => string }>> = {
  direct: { self: false, call: (m, arg, o) => `${o}.${m}(${arg})` },
  callv: { self: false, call: (m, arg, o) => `${o}.callv("${m}", [${arg}])` },
  folded: { self: false, call: (m, arg, o) => `${o}.call("${m.slice(0, 2)}" + "${m.slice(2)}", ${arg})` },
  bare: { self: true, call: (m, arg) => `${m}(${arg})` },
  member: { self: true, call: (m, arg) => `self.${m}(${arg})` },
  dispatched: { self: true, call: (m, arg) => `call("${m}", ${arg})` },
}

/** Findings and capabilities without places: severity, rule and capability are the verdict (a dispatch listed by its method: a file class's object is shown by its class). */
const verdict = (text: string, grammar: Grammar): ReadonlyArray<string> => {
  const scripts = packOf({ "res://main.gd": text }, grammar)
  const script = scripts[0]
  if (script === undefined) return []
  const a = analyzeScript(script, modelOf(scripts, grammar), defaultPolicy)
  // A guarded class (a file class) is an escape where it is extended or stored, apart from the calls judged here.
  return [...a.hits.filter((h) => h.entry.id !== "dangerous-object-escape").map((h) => `${h.severity} ${h.entry.id}`), ...a.uses.map((u) => `use ${u.capability} ${u.capability === "dynamic-dispatch" ? (u.api.split(".").at(-1) ?? u.api) : u.api}`)].sort()
}

describe("a pack class extending an engine class (property)", () => {
  it("calls of the engine class's methods get the verdict they get on Base.new(), whatever the shape", () => {
    fc.assert(
      fc.property(fc.constantFrom(...BASES), fc.constantFrom(...ARGS), fc.constantFrom(...Object.keys(SHAPES)), fc.constantFrom<Grammar>(3, 4), (base, arg, shapeName, grammar) => {
        const shape = SHAPES[shapeName]
        // A bare call of a global function's name (`load(p)`) is that function, never self's method.
        if (shape === undefined || (shapeName === "bare" && isGlobalFunction(grammar, base.method))) return
        const cls = base.cls[grammar]
        const onEngine = ["extends Node", "func _ready():", `\tvar o = ${cls}.new()`, `\t${(shape.self ? SHAPES.direct : shape)?.call(base.method, arg, "o")}`, ""].join("\n")
        const onPack = shape.self
          ? ["extends Node", `class Sub extends ${cls}:`, "\tfunc go():", `\t\t${shape.call(base.method, arg, "self")}`, "func _ready():", "\tSub.new().go()", ""].join("\n")
          : ["extends Node", `class Sub extends ${cls}:`, "\tpass", "func _ready():", "\tvar o = Sub.new()", `\t${shape.call(base.method, arg, "o")}`, ""].join("\n")
        const expected = verdict(onEngine, grammar).filter((v) => !(shape.self && v.startsWith("use dynamic-dispatch")))
        const got = verdict(onPack, grammar).filter((v) => !(shape.self && v.startsWith("use dynamic-dispatch")))
        expect(got).toEqual(expected)
      }),
      { numRuns: 300 },
    )
  })

  it("a method the pack class defines itself is never the engine's", () => {
    fc.assert(
      fc.property(fc.constantFrom(...BASES), fc.constantFrom(...ARGS), fc.constantFrom(...Object.keys(SHAPES)), fc.constantFrom<Grammar>(3, 4), (base, arg, shapeName, grammar) => {
        const shape = SHAPES[shapeName]
        // A bare call of a global function's name is that function even where the class defines it (Godot 3's built-in
        // function token, Godot 4's analyzer: builtinShadows.test.ts, a hundred-and-twentieth red team's).
        if (shape === undefined || (shapeName === "bare" && isGlobalFunction(grammar, base.method))) return
        const own = [`\tfunc ${base.method}(p):`, "\t\tprint(p)"]
        const text = shape.self
          ? ["extends Node", `class Sub extends ${base.cls[grammar]}:`, ...own, "\tfunc go():", `\t\t${shape.call(base.method, arg, "self")}`, "func _ready():", "\tSub.new().go()", ""].join("\n")
          : ["extends Node", `class Sub extends ${base.cls[grammar]}:`, ...own, "func _ready():", "\tvar o = Sub.new()", `\t${shape.call(base.method, arg, "o")}`, ""].join("\n")
        // Only what the argument itself is (the environment read) may be listed.
        expect(verdict(text, grammar).filter((v) => !v.startsWith("use ") && !(v.endsWith("os-environment")))).toEqual([])
      }),
      { numRuns: 200 },
    )
  })
})
