// Property-based, for what a ninth red team got past pckgate-scanner/11 (attackProjects17.ts holds the packs the
// engine ran): an engine object whose class is lost through a `match` binding (whole subject, array and dictionary
// patterns), a signal's argument, a `yield()`'s resume value or a channel the analysis does not follow (a meta),
// then made to write a file; and a match subject that may be any engine object. Pure analysis on source text.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { Stmt } from "../../adapters/scanner/gdscript/ast.ts"
import { parseScript } from "../../adapters/scanner/gdscript/parser.ts"
import { hitsIn, ids } from "./support/analyze.ts"

type Grammar = 3 | 4

const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => ids(found.filter((h) => h.split(" ")[1] === "error"))

/** Engine objects that write files, by grammar: how to make one, and the write with path `p`. */
const WRITERS: ReadonlyArray<{ readonly make: Readonly<Record<Grammar, string | null>>; readonly write: (v: string, p: string) => string }> = [
  { make: { 3: "Directory.new()", 4: 'DirAccess.open("user://")' }, write: (v, p) => `${v}.make_dir_recursive(${p})` },
  { make: { 3: "Directory.new()", 4: 'DirAccess.open("user://")' }, write: (v, p) => `${v}.make_dir(${p})` },
  { make: { 3: "Directory.new()", 4: 'DirAccess.open("user://")' }, write: (v, p) => `${v}.copy("user://a.sav", ${p})` },
  { make: { 3: "Directory.new()", 4: 'DirAccess.open("user://")' }, write: (v, p) => `${v}.rename("user://a.sav", ${p})` },
  { make: { 3: "Directory.new()", 4: 'DirAccess.open("user://")' }, write: (v, p) => `${v}.remove(${p})` },
  { make: { 3: "Image.new()", 4: "Image.new()" }, write: (v, p) => `${v}.save_png(${p})` },
  { make: { 3: "ConfigFile.new()", 4: "ConfigFile.new()" }, write: (v, p) => `${v}.save(${p})` },
  { make: { 3: "File.new()", 4: null }, write: (v, p) => `${v}.open(${p}, 2)` },
]

/** A script: `_ready` runs `body`, then the script's `members`. */
const script = (body: ReadonlyArray<string>, members: ReadonlyArray<string> = []): string => ["extends Node", "signal got(x)", "func _ready():", ...body.map((l) => `\t${l}`), ...members, ""].join("\n")

/** Ways to hand `make` to variable `v`, ending with `write` (a line using `v` and, where it is passed on, `p`). */
type Channel = (make: string, write: (p: string) => string, path: string, grammar: Grammar) => string | null
const CHANNELS: Readonly<Record<string, Channel>> = {
  bind: (make, write, path) => script([`match ${make}:`, "\tvar v:", `\t\t${write(path)}`]),
  array: (make, write, path) => script([`match [1, ${make}, 2]:`, "\t[_, var v, ..]:", `\t\t${write(path)}`]),
  dict: (make, write, path) => script([`match {"k": ${make}, "n": 1}:`, '\t{"n": 1, "k": var v, ..}:', `\t\t${write(path)}`]),
  nested: (make, write, path) => script([`match [[${make}], 0]:`, "\t[[var v], _]:", `\t\t${write(path)}`]),
  guarded: (make, write, path, grammar) => (grammar === 3 ? null : script([`match ${make}:`, "\tvar v when v != null:", `\t\t${write(path)}`])),
  signal: (make, write, path, grammar) =>
    grammar === 3
      ? script([`connect("got", self, "_h", [${path}])`, `emit_signal("got", ${make})`], ["func _h(v, p):", `\t${write("p")}`])
      : script([`got.connect(_h.bind(${path}))`, `got.emit(${make})`], ["func _h(v, p):", `\t${write("p")}`]),
  resume: (make, write, path, grammar) => (grammar === 3 ? script([`var st = w(${path})`, `st.resume(${make})`], ["func w(p):", "\tvar v = yield()", `\t${write("p")}`]) : null),
  meta: (make, write, path) => script([`set_meta("v", ${make})`, 'var v = get_meta("v")', write(path)]),
}

const OUTSIDE = ['OS.get_environment("HOME") + "/.bashrc"', '"/tmp/x"', 'OS.get_environment("PCKGATE_MARKER")']

describe("a file-writing engine object lost on the way (property)", () => {
  it("its write outside user:// is a filesystem-outside-sandbox error, whatever the channel, class and grammar", () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(CHANNELS)), fc.constantFrom(...WRITERS), fc.constantFrom(...OUTSIDE), fc.constantFrom(3 as const, 4 as const), (channel, writer, path, grammar) => {
        const make = writer.make[grammar]
        const source = make === null ? null : CHANNELS[channel]?.(make, (p) => writer.write("v", p), path, grammar)
        fc.pre(source !== null && source !== undefined)
        expect(errors(hitsIn(source ?? "", {}, grammar)), source ?? "").toContain("filesystem-outside-sandbox")
      }),
      { numRuns: 300 },
    )
  })

  it("under user://, and the pack's own class with a method of that name taking the call, stay free of errors", () => {
    const slot = ["extends Reference", "func save(p):", "\tpass", "func remove(p):", "\tpass", "func make_dir(p):", "\tpass", ""].join("\n")
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(CHANNELS)), fc.constantFrom(3 as const, 4 as const), fc.constantFrom("save", "remove", "make_dir"), (channel, grammar, method) => {
        const inside = CHANNELS[channel]?.(grammar === 3 ? "Directory.new()" : 'DirAccess.open("user://")', (p) => `v.make_dir_recursive(${p})`, '"user://saves/" + str(randi())', grammar)
        // A name read at run time (a path from the environment or the command line is an error even here: redTeam12a.test.ts).
        const own = CHANNELS[channel]?.('preload("res://slot.gd").new()', (p) => `v.${method}(${p})`, "File.new().get_line()", grammar)
        fc.pre(inside !== null && inside !== undefined && own !== null && own !== undefined)
        expect(errors(hitsIn(inside ?? "", {}, grammar)), inside ?? "").toEqual([])
        expect(errors(hitsIn(own ?? "", { "res://slot.gd": slot }, grammar)), own ?? "").toEqual([])
      }),
      { numRuns: 120 },
    )
  })

  it("the pack's method of that name counts only when it takes the call's arguments", () => {
    // A meta set elsewhere (not followed), a path read from a file (one from the environment is an error whatever the pack defines).
    const source = script(["var f = File.new()", 'var v = get_meta("v")', 'v.save(f.get_line() + "/x")'])
    expect(errors(hitsIn(source, { "res://slot.gd": "extends Reference\nfunc save():\n\tpass\n" }, 3))).toEqual(["filesystem-outside-sandbox"])
    expect(errors(hitsIn(source, { "res://slot.gd": "extends Reference\nfunc save(a, b):\n\tpass\n" }, 3))).toEqual(["filesystem-outside-sandbox"])
    // Then it may be the pack's: a path read at run time is a warning, as a banned method is on such a receiver.
    expect(hitsIn(source, { "res://slot.gd": "extends Reference\nfunc save(a, b = 1):\n\tpass\n" }, 3)).toEqual(["6:2 warning filesystem-outside-sandbox v.save(…)"])
  })

  it("a number given to a method of that name on an object of unknown class is no path (Array.remove(i))", () => {
    expect(hitsIn(script(['var items = get_meta("items")', "items.remove(0)", "items.remove(items.size() - 1)"]), {}, 3)).toEqual([])
  })
})

describe("a match subject that may be any engine object (property)", () => {
  const SUBJECTS = ["instance_from_id(OS.get_instance_id())", "instance_from_id(get_meta(\"id\"))", 'Engine.get_singleton(get_meta("n"))']
  it("flows into its binding like an assignment: a banned call there is an error despite a decoy of the pack", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SUBJECTS), fc.constantFrom("bind", "array", "dict", "nested", "guarded"), fc.constantFrom(3 as const, 4 as const), (subject, channel, grammar) => {
        const source = CHANNELS[channel]?.(subject, () => 'v.execute("touch", ["x"], false)', "", grammar)
        fc.pre(source !== null && source !== undefined)
        const found = errors(hitsIn(`${source ?? ""}func execute(a, b, c):\n\tpass\n`, {}, grammar))
        expect(found.some((id) => id === "os-process" || id === "dangerous-object-escape"), source ?? "").toBe(true)
      }),
      { numRuns: 90 },
    )
  })

  it("a dangerous singleton as the subject escapes there", () => {
    for (const grammar of [3, 4] as const) expect(errors(hitsIn(script(["match OS:", "\tvar o:", "\t\tpass"]), {}, grammar))).toEqual(["dangerous-object-escape"])
  })
})

describe("match patterns as the engines read them", () => {
  const branches = (source: string, grammar: Grammar) => {
    const match = parseScript(source, grammar).root.functions[0]?.body[0] as Extract<Stmt, { k: "match" }>
    return match.branches.map((b) => ({ patterns: b.patterns.map((p) => p.k), binds: b.binds.map((x) => `${x.name}=${x.value.k === "index" && x.value.index.k === "num" ? `[${x.value.index.text}]` : x.value.k === "index" && x.value.index.k === "str" ? `[${JSON.stringify(x.value.index.value)}]` : x.value.k}`) }))
  }

  it.each([3, 4] as const)("var binds the subject, [..] its elements by index, {k: ..} its values by key; constants are compared (Godot %i)", (grammar) => {
    const source = ["func f(x):", "\tmatch x:", "\t\tIDLE, 2:", "\t\t\tpass", "\t\t[var a, _, var b, ..]:", "\t\t\tpass", '\t\t{"k": var c, "n", ..}:', "\t\t\tpass", "\t\tvar d:", "\t\t\tpass", ""].join("\n")
    expect(branches(source, grammar)).toEqual([
      { patterns: ["id", "num"], binds: [] },
      { patterns: [], binds: ["a=[0]", "b=[2]"] },
      { patterns: ["str", "str"], binds: ['c=["k"]'] },
      { patterns: [], binds: ["d=id"] },
    ])
  })

  it("a constant pattern is no local: the name keeps its constant's value", () => {
    const source = ["extends Node", 'const M = "execute"', "func _ready():", "\tmatch 1:", "\t\tM:", "\t\t\tpass", '\tOS.call(M, "touch", ["x"])', ""].join("\n")
    expect(errors(hitsIn(source, {}, 3))).toEqual(["os-process"])
  })
})
