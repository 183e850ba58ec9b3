// Property-based, for the calls scene data makes by name (checks/dataCallScript.ts; the packs godot3-server ran
// are attackProjects34.ts): a method reached on an object the data binds is caught through any chain of
// dispatch APIs, as a connection (after the signal's arguments) or a method track's key; ordinary calls of a
// game's own methods and of node methods, with plain binds, stay clean. The analysis only: no engine.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type DataCallSite, dataCallScript } from "../../adapters/scanner/checks/dataCallScript.ts"
import { hitsIn } from "./support/analyze.ts"

type Arg = DataCallSite["args"][number]

const BASE = "res://base.gd"
const SCRIPT: Arg = { resource: { _tag: "External", path: BASE } }
const SOURCE = 'extends Node\nfunc _init():\n\tOS.execute("touch", ["/tmp/m"])\n'

/** The game's own methods, some named like banned ones: a script of the pack defines each. */
const OWN = ["spawn_enemy", "_on_hit", "open_door", "execute", "kill", "save", "load_level", "shake"] as const
const LEVEL = ["extends Node2D", ...OWN.flatMap((m) => [`func ${m}(a = null, b = null, c = null):`, "\tprint(a, b, c)"]), ""].join("\n")

const errorsOf = (call: Omit<DataCallSite, "at" | "what">, grammar: 3 | 4): ReadonlyArray<string> => {
  const script = dataCallScript([{ ...call, at: null, what: call.method }], (r) => (r._tag === "External" ? { load: r.path } : { type: r.type }))
  return hitsIn(script?.source ?? "", { [BASE]: "extends Node\n", "res://level.gd": LEVEL }, grammar)
    .filter((h) => h.split(" ")[1] === "error")
    .map((h) => h.split(" ")[2] ?? "")
}

/** A call by name: the method and the arguments that follow it. */
type Reached = readonly [string, ReadonlyArray<Arg>]

/** The call that replaces the script's source (3.x: on a Tween node, on the timer a connection is made on). */
const reached = fc.constantFrom<Reached>(
  ["interpolate_callback", [SCRIPT, 0.1, "set_source_code", SOURCE]],
  ["interpolate_deferred_callback", [SCRIPT, 0.25, "set_source_code", SOURCE]],
  ["connect", ["timeout", SCRIPT, "set_source_code", [SOURCE]]],
)

/** Wraps a call into another by name: `call`, `call_deferred` pass the arguments on, `callv` and `propagate_call` in an array. */
const wrap = (inner: Reached, how: "call" | "call_deferred" | "callv" | "propagate_call"): Reached =>
  how === "call" || how === "call_deferred" ? [how, [inner[0], ...inner[1]]] : [how, [inner[0], [...inner[1]]]]

const chain = fc.tuple(reached, fc.array(fc.constantFrom("call", "call_deferred", "callv", "propagate_call") as fc.Arbitrary<"call" | "call_deferred" | "callv" | "propagate_call">, { maxLength: 3 }))

describe("a method scene data dispatches by name (red team 14b)", () => {
  it("set_source_code reached on the pack's script through any chain of dispatch APIs, from a connection or a method track, is an error", () => {
    fc.assert(
      fc.property(chain, fc.boolean(), ([inner, wrappers], afterSignal) => {
        const [method, args] = wrappers.reduce(wrap, inner)
        expect(errorsOf({ node: "Tw", resource: [], method, args, afterSignal }, 3)).toContain("script-source-code")
      }),
      { numRuns: 200 },
    )
  })

  it("a method track on a resource (`Holder:res`) calling set_source_code through any chain is an error in both grammars", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("call", "call_deferred", "callv") as fc.Arbitrary<"call" | "call_deferred" | "callv">, { maxLength: 3 }), fc.constantFrom(3, 4) as fc.Arbitrary<3 | 4>, (wrappers, grammar) => {
        const [method, args] = wrappers.reduce(wrap, ["set_source_code", [SOURCE]] as Reached)
        expect(errorsOf({ node: "Holder", resource: ["res"], method, args, afterSignal: false }, grammar)).toContain("script-source-code")
      }),
      { numRuns: 100 },
    )
  })

  it("the game's own methods and node methods, called with plain binds directly or deferred, stay clean (own names like banned ones included)", () => {
    const own = fc.constantFrom(...OWN)
    const plain = fc.oneof(fc.integer({ min: -5, max: 100 }), fc.double({ min: 0, max: 10, noNaN: true }), fc.boolean(), fc.constantFrom<Arg>("bat", "intro", "level_2", "Go!", null))
    const node = fc.constantFrom(".", "Label", "AP", "Enemies/Slime")
    const call = fc.oneof(
      fc.tuple(own, fc.array(plain, { maxLength: 3 })).map(([m, a]): Reached => [m, a]),
      fc.tuple(own, fc.array(plain, { maxLength: 3 })).map(([m, a]): Reached => ["call_deferred", [m, ...a]]),
      fc.tuple(fc.constantFrom("shake_requested", "died", "start_game"), fc.array(plain, { maxLength: 2 })).map(([s, a]): Reached => ["emit_signal", [s, ...a]]),
      fc.tuple(fc.constantFrom("visible", "modulate", "text", "frame"), plain).map(([p, v]): Reached => ["set", [p, v]]),
      fc.tuple(fc.constantFrom("play", "hide", "show", "queue_free", "set_text", "start", "stop"), fc.array(plain, { maxLength: 1 })).map(([m, a]): Reached => [m, a]),
    )
    fc.assert(
      fc.property(call, node, fc.constantFrom(3, 4) as fc.Arbitrary<3 | 4>, ([method, args], at, grammar) => {
        // Connections to the game's own methods and to node methods; a method track may also dispatch (no signal arguments come first).
        const forms = method === "call_deferred" || method === "emit_signal" || method === "set" ? [false] : [true, false]
        for (const afterSignal of forms) expect(errorsOf({ node: at, resource: [], method, args, afterSignal }, grammar), `${method}(${JSON.stringify(args)}) after signal: ${afterSignal}`).toEqual([])
      }),
      { numRuns: 300 },
    )
  })
})
