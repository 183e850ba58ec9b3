// A hundred-and-twelfth hunt's card game: `var hand = DECK.duplicate(true)`, then `for card in hand:` and
// `effects.call(card["effect"], card["value"])` on an untyped member. A deep copy walked by a loop whose variable only
// reads entries by constant keys holds the table's strings; a call whose value is dropped hands nothing on.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const cards = (...use: ReadonlyArray<string>): string =>
  [
    "extends Node",
    'const DECK = [{"effect": "deal_damage", "value": 6}, {"effect": "heal", "value": 3}]',
    "class Effects:",
    "\tvar hp = 30",
    "\tfunc deal_damage(v):",
    "\t\thp -= v",
    "\tfunc heal(v):",
    "\t\thp += v",
    "var effects",
    "func _ready():",
    // An engine object (what the hunt's untyped member was taken to be): a dispatch on it is judged by the names it may reach.
    "\teffects = Reference.new()",
    "\tvar hand = DECK.duplicate(true)",
    ...use.map((l) => `\t${l}`),
    "",
  ].join("\n")

const errorsAt = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.includes(" error ")).map((h) => h.split(" ").slice(0, 3).join(" "))

describe("a deep copy of a constant table walked by a loop", () => {
  it("whose variable only reads entries gives the table's strings: the dispatch is judged by them", () => {
    expect(errorsAt(hits3(cards("for card in hand:", '\tif effects.has_method(card["effect"]):', '\t\teffects.call(card["effect"], card["value"])')))).toEqual([])
  })

  it("written into, or its variable written into or handed on, gives no known string", () => {
    expect(errorsAt(hits3(cards('hand[0]["effect"] = "get"', "for card in hand:", '\teffects.call(card["effect"], card["value"])')))).toEqual(["15:3 error dynamic-dispatch"])
    expect(errorsAt(hits3(cards("for card in hand:", '\tcard["effect"] = "get"', '\teffects.call(card["effect"], card["value"])')))).toEqual(["15:3 error dynamic-dispatch"])
    expect(errorsAt(hits3(cards("for card in hand:", "\tchange(card)", '\teffects.call(card["effect"], card["value"])', "func change(c):", '\tc["effect"] = "get"')))).toEqual(["15:3 error dynamic-dispatch"])
  })

  it("whose entries read are containers is not followed: they are the copy's own, changed through a local or a function (a hundred-and-fourteenth red team's)", () => {
    const deck = (...use: ReadonlyArray<string>): ReadonlyArray<string> =>
      errorsAt(hits3(["extends Node", 'const DECK = [{"fx": {"m": "get_name"}}]', "func boost(fx):", '\tfx["m"] = "execute"', "func _ready():", "\tvar hand = DECK.duplicate(true)", ...use.map((l) => `\t${l}`), "\tfor card in hand:", '\t\tOS.call(card["fx"]["m"], "touch", ["/tmp/x"])', ""].join("\n")))
    expect(deck("for card in hand:", '\tvar fx = card["fx"]', '\tfx["m"] = "execute"')).toEqual(["11:3 error dynamic-dispatch"])
    expect(deck("for card in hand:", '\tboost(card["fx"])')).toEqual(["10:3 error dynamic-dispatch"])
    expect(deck()).toEqual(["8:3 error dynamic-dispatch"])
  })

  it("read by an index that is no integer literal is not followed: the engine truncates `hand[0.5]` to the first card (a hundred-and-fifteenth red team's)", () => {
    const flat = (index: string): ReadonlyArray<string> =>
      errorsAt(hits3(["extends Node", 'const DECK = [{"m": "get_name"}, {"m": "get_name"}]', "func _ready():", "\tvar hand = DECK.duplicate(true)", `\tvar top = hand[${index}]`, '\ttop["m"] = "execute"', "\tfor card in hand:", '\t\tOS.call(card["m"], "touch", ["/tmp/x"])', ""].join("\n")))
    expect(flat("0.5")).toEqual(["8:3 error dynamic-dispatch"])
    expect(flat("0")).toEqual(["8:3 error dynamic-dispatch"])
  })
})

describe("a member given a constant table", () => {
  it("is the same Dictionary: a write into it, at any depth, stops the table being followed (a hundred-and-fourteenth red team's)", () => {
    const alias = ["extends Node", 'const FX = {"fire": {"m": "get_name"}}', "var fx = FX", "func _ready():", '\tfx["fire"]["m"] = "execute"', '\tOS.call(FX["fire"]["m"], "touch", ["/tmp/x"])', ""].join("\n")
    expect(errorsAt(hits3(alias))).toEqual(["6:2 error dynamic-dispatch"])
  })
})
