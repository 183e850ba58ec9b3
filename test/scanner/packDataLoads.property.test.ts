// Load paths from the pack's own JSON (docs/scanner.md, pack data loads), property-based: a string reached through any
// mix of the subscripts the analysis follows (constant keys, `.key`, `get`, numbers, loops, keys(), values(), front())
// is judged, so a path outside the pack placed anywhere the load can reach is an error; through constant keys and
// numbers alone, a texture of the pack there is the warning. Packs of the test's writer; Godot never starts.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')
const ICON = "res://icons/key.png"

/** One subscript on the way to the leaf: a key of a Dictionary, or a place in an Array. */
type Step = { readonly key: string } | { readonly index: number; readonly length: number }

/** How the script takes that step: written as a constant (`d["k"]`, `d.k`, `d.get("k")`, `a[1]`) or not (a loop, keys(), values(), front()). */
type Form = "subscript" | "member" | "get" | "loop" | "keys" | "values" | "end"

const KEYS = ["icon", "items", "slot_1", "data"] as const

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom(...KEYS).map((key) => ({ key })),
  fc.integer({ min: 1, max: 3 }).chain((length) => fc.integer({ min: 0, max: length - 1 }).map((index) => ({ index, length }))),
)

/**
 * The JSON holding `leaf` at the end of `steps`: beside each key a sibling `other` holding a texture of the pack, and
 * `filler` at the other places of an Array (a number subscript reaches them all, and a string's characters after them).
 */
const jsonAt = (steps: ReadonlyArray<Step>, leaf: string, filler: unknown): unknown => {
  const [first, ...rest] = steps
  if (first === undefined) return leaf
  const child = jsonAt(rest, leaf, filler)
  if ("key" in first) return { [first.key]: child, other: ICON }
  return Array.from({ length: first.length }, (_, i) => (i === first.index ? child : filler))
}

/** The forms a step can be written in: every one, or only those with a constant key or number. */
const formsOf = (s: Step, constantOnly: boolean): ReadonlyArray<Form> => {
  if ("key" in s) return constantOnly ? ["subscript", "member", "get"] : ["subscript", "member", "get", "loop", "keys", "values"]
  const ends = s.index === 0 || s.index === s.length - 1 ? (["end"] as const) : []
  return constantOnly ? ["subscript"] : ["subscript", "loop", ...ends]
}

/** The statements that take `s` from `v{n}` into `v{n + 1}` (at `indent` tabs), and the indent after them. */
const take = (s: Step, form: Form, n: number, indent: number): { readonly lines: ReadonlyArray<string>; readonly indent: number } => {
  const tab = "\t".repeat(indent)
  const from = `v${n}`
  const to = `var v${n + 1}`
  const key = "key" in s ? JSON.stringify(s.key) : String(s.index)
  switch (form) {
    case "subscript":
      return { lines: [`${tab}${to} = ${from}[${key}]`], indent }
    case "member":
      return { lines: [`${tab}${to} = ${from}.${"key" in s ? s.key : ""}`], indent }
    case "get":
      return { lines: [`${tab}${to} = ${from}.get(${key})`], indent }
    case "loop":
      // A loop gives a Dictionary's keys, an Array's elements.
      return { lines: [`${tab}for k${n} in ${from}:`, `${tab}\t${to} = ${"key" in s ? `${from}[k${n}]` : `k${n}`}`], indent: indent + 1 }
    case "keys":
      return { lines: [`${tab}${to} = ${from}[${from}.keys()[0]]`], indent }
    case "values":
      return { lines: [`${tab}for x${n} in ${from}.values():`, `${tab}\t${to} = x${n}`], indent: indent + 1 }
    case "end":
      return { lines: [`${tab}${to} = ${"index" in s && s.index === 0 ? `${from}.front()` : `${from}.back()`}`], indent }
  }
}

/** A script reading res://data/items.json whose `load` takes the leaf the steps lead to, written in `forms`; the load's line. */
const scriptOf = (steps: ReadonlyArray<Step>, forms: ReadonlyArray<Form>): { readonly source: string; readonly line: number } => {
  const out = ["extends EngineGame", "", "func _ready():", "\tvar f = File.new()", '\tf.open("res://data/items.json", File.READ)', "\tvar v0 = parse_json(f.get_as_text())"]
  let indent = 1
  steps.forEach((s, n) => {
    const taken = take(s, forms[n] ?? "subscript", n, indent)
    out.push(...taken.lines)
    indent = taken.indent
  })
  out.push(`${"\t".repeat(indent)}load(v${steps.length})`)
  return { source: `${out.join("\n")}\n`, line: out.length }
}

/** The runtime-code-loading findings at `line` of the pack, as severities. */
const atLoad = async (source: string, json: unknown, line: number): Promise<ReadonlyArray<string>> => {
  const entries = [
    { path: "res://manifest.json", data: MANIFEST },
    { path: "res://game/main.tscn", data: SCENE },
    { path: "res://game/main.gd", data: utf8(source) },
    { path: ICON, data: utf8("png") },
    { path: "res://data/items.json", data: utf8(JSON.stringify(json)) },
  ]
  const report = await scanBytes(writePack({ format: 1, entries }))
  return report.findings.filter((f) => f.line === line && f.message.includes("(policy runtime-code-loading)")).map((f) => f.severity)
}

const stepsAndForms = (constantOnly: boolean): fc.Arbitrary<{ readonly steps: ReadonlyArray<Step>; readonly forms: ReadonlyArray<Form> }> =>
  fc.array(step, { minLength: 1, maxLength: 4 }).chain((steps) => fc.tuple(...steps.map((s) => fc.constantFrom(...formsOf(s, constantOnly)))).map((forms) => ({ steps, forms })))

describe("load paths from the pack's JSON, through random subscripts", () => {
  it("a path outside the pack wherever the load can reach it is an error", async () => {
    await fc.assert(
      fc.asyncProperty(stepsAndForms(false), fc.constantFrom("user://evil.tres", "/tmp/evil.tres", "res://../evil.tres", "evil.tres"), async ({ steps, forms }, evil) => {
        const { source, line } = scriptOf(steps, forms)
        expect(await atLoad(source, jsonAt(steps, evil, ICON), line), source).toEqual(["error"])
      }),
      { numRuns: 60 },
    )
  })

  // Numbers beside it in Arrays: Godot 3's load() refuses them (a String there would give its characters to the next number).
  it("a texture of the pack reached by constant keys and numbers is the warning", async () => {
    await fc.assert(
      fc.asyncProperty(stepsAndForms(true), async ({ steps, forms }) => {
        const { source, line } = scriptOf(steps, forms)
        expect(await atLoad(source, jsonAt(steps, ICON, 0), line), source).toEqual(["warning"])
      }),
      { numRuns: 40 },
    )
  })
})
