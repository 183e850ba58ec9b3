// Property-based, for what a fifth red team got past pckgate-scanner/7 (attackProjects7.ts holds the packs the
// engine ran): a script's source written under either of its names through any write shape; an Animation's
// method keys given through its tracks/ properties; JSON-RPC and the property setters Node and SceneTree add.
// Pure analysis on source text: no engine runs here.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hitsIn, ids } from "./support/analyze.ts"

type Grammar = 3 | 4

const fn = (...body: ReadonlyArray<string>): string => `extends Node\nvar s\nfunc _ready():\n${body.map((l) => `\t${l}`).join("\n")}\n`
const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => ids(found.filter((h) => h.split(" ")[1] === "error"))

/** `text` as a GDScript expression cut into concatenated literals at `cuts`. */
const split = (text: string, cuts: ReadonlyArray<number>): string => {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
  const parts: Array<string> = []
  let from = 0
  for (const c of at) {
    parts.push(`"${text.slice(from, c)}"`)
    from = c
  }
  parts.push(`"${text.slice(from)}"`)
  return parts.join(" + ")
}

const SOURCE = '"extends Reference"'

describe("a script's source under either name (property)", () => {
  it("source_code and script/source, spelled in pieces, through every write shape, are script-source-code", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("source_code", "script/source"),
        fc.array(fc.nat(20), { maxLength: 3 }),
        fc.constantFrom("set", "subscript", "call-set", "set_indexed", "const"),
        fc.constantFrom(3 as const, 4 as const),
        (property, cuts, shape, grammar: Grammar) => {
          const name = split(property, cuts)
          const line =
            shape === "set"
              ? `s.set(${name}, ${SOURCE})`
              : shape === "subscript"
                ? `s[${name}] = ${SOURCE}`
                : shape === "call-set"
                  ? `s.call("set", ${name}, ${SOURCE})`
                  : shape === "set_indexed"
                    ? `set_indexed("s:" + ${name}, ${SOURCE})`
                    : `s.set(P, ${SOURCE})`
          const body = [`s = load("res://blank.gd").duplicate()`, line]
          const main = shape === "const" ? `const P = ${name}\n${fn(...body)}` : fn(...body)
          expect(errors(hitsIn(main, { "res://blank.gd": "extends Reference\n" }, grammar))).toContain("script-source-code")
        },
      ),
      { numRuns: 150 },
    )
  })
})

describe("an Animation's tracks/ properties (property)", () => {
  it("a method key given through tracks/N/keys is judged like track_insert_key; value keys stay clean", () => {
    fc.assert(
      fc.property(
        fc.nat(9),
        fc.array(fc.nat(12), { maxLength: 2 }),
        fc.constantFrom("set", "subscript", "set_indexed"),
        fc.boolean(),
        fc.constantFrom(3 as const, 4 as const),
        (track, cuts, shape, method, grammar: Grammar) => {
          const key = `${split(`tracks/${track}/keys`, cuts)}`
          const values = method ? `[{"method": ${split("set_indexed", cuts)}, "args": ["s:source_code", ${SOURCE}]}]` : "[Color(1, 1, 1, 1), Color(1, 1, 1, 0)]"
          const keys = `{"times": [0.0, 1.0], "transitions": [1.0, 1.0], "values": ${values}}`
          const write = shape === "set" ? `a.set(${key}, ${keys})` : shape === "subscript" ? `a[${key}] = ${keys}` : `a.set_indexed(${key}, ${keys})`
          const found = errors(hitsIn(fn("var a = Animation.new()", write), {}, grammar))
          if (method) expect(found).toContain("script-source-code")
          else expect(found).toEqual([])
        },
      ),
      { numRuns: 120 },
    )
  })

  it("keys held in a variable, or a method track's path built at run time, are errors", () => {
    expect(errors(hitsIn(fn("var a = Animation.new()", "var k = {}", 'a.set("tracks/0/keys", k)'), {}, 3))).toContain("dynamic-dispatch")
    expect(errors(hitsIn(fn("var a = Animation.new()", 'var p = ".:" + str(randi())', 'a.set("tracks/0/path", p)'), {}, 3))).toContain("script-source-code")
    expect(errors(hitsIn(fn("var a = Animation.new()", 'a["tracks/1/path"] = ".:s:script/source"'), {}, 3))).toContain("script-source-code")
  })
})

describe("JSON-RPC, rset and set_group", () => {
  it("JSONRPC.set_scope is an error on any object, your own too, and so is processing without a scope", () => {
    for (const target of ["self", "Node.new()", "get_parent()"]) {
      expect(errors(hitsIn(fn("var j = JSONRPC.new()", `j.set_scope("a", ${target})`), {}, 3))).toContain("dynamic-dispatch")
    }
    expect(errors(hitsIn(fn("var j = JSONRPC.new()", 'j.process_action({"method": "x"})'), {}, 4))).toContain("dynamic-dispatch")
    // A creator's own method of that name is the creator's code.
    expect(errors(hitsIn(`extends Node\nfunc process_action(a):\n\tpass\nfunc _ready():\n\tprocess_action({})\n\tself.process_action({})\n`, {}, 3))).toEqual([])
  })

  it("rset, rset_config and set_group write the property they name", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("source_code", "script/source"),
        fc.constantFrom('rset(P, V)', 'rset_id(1, P, V)', 'rset_unreliable(P, V)', 'rset_unreliable_id(1, P, V)', "rset_config(P, 1)", 'get_tree().set_group("g", P, V)', 'get_tree().set_group_flags(0, "g", P, V)'),
        (property, call) => {
          const line = call.replace("P", `"${property}"`).replace("V", SOURCE)
          expect(errors(hitsIn(fn(line), {}, 3))).toContain("script-source-code")
        },
      ),
      { numRuns: 40 },
    )
    expect(errors(hitsIn(fn('rset("position", Vector2.ZERO)', 'get_tree().set_group("enemies", "visible", false)'), {}, 3))).toEqual([])
  })
})
