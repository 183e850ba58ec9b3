// A local lives from its `var` to the end of its block; outside that span its name is the class's member
// (gdscript/blockScopes.ts, after 3.x gdscript_parser.cpp `_parse_block`). A twenty-sixth red team wrote a member
// after a block that declared a local of its name, and the scanner took the write for the local's. The Godot 3
// attacks godot3-server ran are attackProjects62.ts; here any way of declaring the local, under any name, with the
// member written after (or read before) its span, is still the member's write, and a use inside the span is the local's.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { parseScript } from "../../adapters/scanner/gdscript/parser.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')

/** The lines of `pick()` that declare a local `n` in a block and use it there (`inner`: its statements). */
const DECLARES: Readonly<Record<string, (n: string, inner: ReadonlyArray<string>) => ReadonlyArray<string>>> = {
  if: (n, inner) => ['\tif OS.get_name() == "X":', `\t\tvar ${n} = "user://a.txt"`, ...inner.map((l) => `\t\t${l}`)],
  else: (n, inner) => ["\tif randi() % 2 == 0:", "\t\tpass", "\telse:", `\t\tvar ${n} = "user://a.txt"`, ...inner.map((l) => `\t\t${l}`)],
  while: (n, inner) => ["\tvar i = 0", "\twhile i < 1:", "\t\ti += 1", `\t\tvar ${n} = "user://a.txt"`, ...inner.map((l) => `\t\t${l}`)],
  for: (n, inner) => [`\tfor ${n} in ["user://a.txt"]:`, ...inner.map((l) => `\t\t${l}`)],
  match: (n, inner) => ['\tmatch ["user://a.txt"]:', `\t\t[var ${n}]:`, ...inner.map((l) => `\t\t\t${l}`)],
  nested: (n, inner) => ["\tif true:", "\t\tif true:", `\t\t\tvar ${n} = "user://a.txt"`, ...inner.map((l) => `\t\t\t${l}`)],
}

/** main.gd: member `n`; `pick()` declares a local `n` (`how`), then sets the member from the environment (line 4 + …). */
const script = (n: string, how: string, after: boolean): { readonly text: string; readonly write: number; readonly inner: number } => {
  const inner = ["var g = File.new()", `g.open(${n}, File.WRITE)`]
  const block = DECLARES[how]?.(n, inner) ?? []
  const set = `\t${n} = OS.get_environment("HOME") + "/x"`
  const pick = after ? [...block, set] : [set, ...block]
  const head = ["extends Node2D", "", `var ${n} = "user://save.txt"`, "", "func _ready():", "\tpick()", "\tvar f = File.new()", `\tf.open(${n}, File.WRITE)`, "", "func pick():"]
  const text = [...head, ...pick, ""].join("\n")
  const lines = text.split("\n")
  return { text, write: 8, inner: lines.findIndex((l) => l.includes(`g.open(${n}`)) + 1 }
}

const findings = async (text: string): Promise<ReadonlyArray<string>> => {
  const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(text) }] }))
  return report.findings.filter((f) => f.file === "res://game/main.gd" && f.message.includes("(policy filesystem-outside-sandbox)")).map((f) => `${f.line} ${f.severity}`)
}

// Not a keyword, a function the script calls, nor a local of its own (`f`, `g`, the while loop's `i`).
const RESERVED = new Set(["f", "g", "i", "pick", "print", "str", "load", "randi", "and", "or", "not", "in", "as", "is", "if", "elif", "else", "for", "while", "match", "break", "continue", "pass", "return", "class", "class_name", "extends", "tool", "signal", "func", "static", "const", "enum", "var", "onready", "export", "setget", "breakpoint", "preload", "yield", "assert", "remote", "master", "puppet", "remotesync", "mastersync", "puppetsync", "sync", "slave", "null", "true", "false", "self", "void"])
const NAME = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/).filter((n) => !RESERVED.has(n))

describe("a local outside the span the engine gives it", () => {
  it("is the member there: the member set after the local's block (or before a later one) is judged, the local's own use is the local's", async () => {
    await fc.assert(
      fc.asyncProperty(NAME, fc.constantFrom(...Object.keys(DECLARES)), fc.boolean(), async (n, how, after) => {
        const s = script(n, how, after)
        const found = await findings(s.text)
        // The member's write is the error; the local's own use inside its span is no error (a match binding of an
        // Array's element is a value not pinned down: at most the warning).
        expect(found.filter((f) => f.endsWith("error"))).toEqual([`${s.write} error`])
        expect(found.filter((f) => f.startsWith(`${s.inner} `) && f.endsWith("error"))).toEqual([])
      }),
      { numRuns: 40 },
    )
  })

  it("keeps a function unchanged when no name is used both ways", () => {
    const text = ["extends Node", "var a = 1", "func f(p):", "\tvar b = p", "\tfor i in b:", "\t\tprint(i)", "\tfor i in b:", "\t\tprint(i, a)", ""].join("\n")
    const fn = parseScript(text, 3).root.functions[0]
    expect(JSON.stringify(fn)).not.toContain("@")
  })

  it("renames the local and its uses in its span to name@line.column, and leaves the member's uses alone", () => {
    const text = ["extends Node", "var p = 1", "func f():", "\tprint(p)", "\tif true:", "\t\tvar p = 2", "\t\tprint(p)", "\tprint(p)", ""].join("\n")
    const body = parseScript(text, 3).root.functions[0]?.body ?? []
    const names: Array<string> = []
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk)
      else if (v !== null && typeof v === "object") {
        const o = v as Record<string, unknown>
        if ((o.k === "id" || o.k === "var") && typeof o.name === "string" && /^p(@|$)/.test(o.name)) names.push(o.name)
        Object.values(o).forEach(walk)
      }
    }
    walk(body)
    expect(names).toEqual(["p", "p@6.7", "p@6.7", "p"])
  })

  it("reads a local in its own initializer or iterable as its slot, any value (a twenty-seventh red team's stale slots)", async () => {
    const text = ["extends Node2D", 'const action = "get_name"', 'var saves = ["user://a.txt"]', "func _ready():", "\tvar action = action", '\tOS.call(action, "t", [])', "\tfor saves in saves:", "\t\tvar f = File.new()", "\t\tf.open(saves, File.WRITE)", ""].join("\n")
    const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(text) }] }))
    const errors = report.findings.filter((f) => f.file === "res://game/main.gd" && f.severity === "error" && /\(policy (dynamic-dispatch|filesystem-outside-sandbox)\)/.test(f.message)).map((f) => `${f.line} ${/\(policy ([a-z-]+)\)/.exec(f.message)?.[1]}`)
    expect(errors).toEqual(["6 dynamic-dispatch", "9 filesystem-outside-sandbox"])
  })
})
