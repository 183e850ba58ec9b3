// A hundred-and-twentieth hunt's card battler (and round 118's `player.call(item.use_method, item)`): a member given
// only an instance of a pack class, `effects.call(card.effect, card.value)`. A dispatch by a name out of sight with
// one argument after the name writes no member (every writer but JSON-RPC's and FuncRef's takes two or more: the
// engine refuses fewer), and a write into what the member holds (`effects.target = enemy`) is none of the member:
// it keeps the pack's object, and the dispatch reaches only that object's methods.
import { describe, expect, it } from "vitest"
import { writerArities } from "../../adapters/scanner/gdscript/writerArity.ts"
import { dispatchIndex } from "../../adapters/scanner/gdscript/engineDispatch.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { hits3 } from "./support/analyze.ts"

const EFFECTS = { "res://game/card_effects.gd": "extends Reference\nclass_name CardEffects\nvar target = null\nfunc heal(value):\n\tprint(value)\n" }
const game = (...more: ReadonlyArray<string>): string =>
  ["extends Node", "var effects", "var enemy = 3", "func _ready():", "\teffects = CardEffects.new()", "\teffects.target = enemy", '\teffects.connect("tree_exiting", self, "_gone")', "func play_card(card):", "\teffects.call(card.effect, card.value)", "func _gone():", "\tpass", ...more, ""].join("\n")
const errors = (source: string): ReadonlyArray<string> => hits3(source, EFFECTS).filter((h) => h.includes(" error "))

describe("a dispatch by a name out of sight on a member holding the pack's object", () => {
  it("is no error where no writer could give the member another object", () => {
    expect(errors(game())).toEqual([])
  })

  it("is an error where a dispatch with a name and a value after it may write the member", () => {
    expect(errors(game("func poke(n, v):", '\tcall(n, "effects", v)'))).toEqual(["9:2 error dynamic-dispatch call(…)"])
    expect(errors(game("func poke(n, v):", '\tcallv(n, ["effects", v])'))).toEqual(["9:2 error dynamic-dispatch call(…)"])
  })

  it("is an error where the pack may hold an object whose writer takes one argument (JSON-RPC's action, FuncRef's function)", () => {
    expect(errors(game("var rpc = JSONRPC.new()", "func poke(n, v):", "\tcall(n, v)"))).toEqual(["9:2 error dynamic-dispatch call(…)"])
    expect(errors(game("func poke(n, v):", '\tvar f = funcref(self, "_gone")', "\tcall(n, v)"))).toEqual(["9:2 error dynamic-dispatch call(…)"])
  })
})

describe("the fewest arguments a writer writes with", () => {
  it("is the name and a value for a setter, the name and its callee's for a dispatcher, two for callv", () => {
    const dispatch = dispatchIndex(3, defaultPolicy)
    const writers = new Set(["set", "set_indexed", "call", "callv", "connect", "call_group", "process_action", "set_function"])
    const none = writerArities(dispatch, writers, () => false)
    expect(Object.fromEntries([...none].sort())).toEqual({ call: 3, call_group: 4, callv: 2, connect: 3, process_action: Number.POSITIVE_INFINITY, set: 2, set_function: Number.POSITIVE_INFINITY, set_indexed: 2 })
    const rpc = writerArities(dispatch, writers, (w) => w === "JSONRPC")
    expect([rpc.get("process_action"), rpc.get("call"), rpc.get("set_function")]).toEqual([1, 2, Number.POSITIVE_INFINITY])
  })
})
