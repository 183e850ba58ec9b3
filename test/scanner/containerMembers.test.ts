// Round 128's hunt (a card game): `var hand = ["strike", "defend"]`, `var id = hand[i]` then `discard.append(id)`
// stopped every constant table being followed (a read by a name built at run time from what may be an object). An
// untyped member that starts as an Array or Dictionary literal and that every write gives another such value is never
// an object (containerMembers.ts), unless a write out of sight may give it one: a string naming it, a write by a name
// not a literal whose value may be an object, a second declaration, data setting it.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const cards = (...extra: ReadonlyArray<string>): ReadonlyArray<string> =>
  hits3(
    [
      "extends Node",
      'const CARDS = {"strike": {"effect": "deal"}, "defend": {"effect": "guard"}}',
      'var hand = ["strike", "defend"]',
      "var discard = []",
      "func play(i):",
      "\tvar id = hand[i]",
      "\tvar card = CARDS[id]",
      "\tvar f = funcref(self, card.effect)",
      "\tf.call_func(3)",
      "\tdiscard.append(id)",
      "func deal(n):",
      "\tpass",
      "func guard(n):",
      "\tpass",
      ...extra,
      "",
    ].join("\n"),
  ).filter((h) => h.includes(" error "))

describe("an untyped member holding only Arrays or Dictionaries", () => {
  it("is no object: reading it by a variable leaves the constant tables followed", () => {
    expect(cards()).toEqual([])
    expect(cards("func deal_again():", '\thand = ["strike"]', "\thand += discard")).toEqual([])
  })

  it.each([
    ["a write giving it an object", ["func reset():", '\thand = get_node("Hand")']],
    ["its name in a string (a write by that name)", ["func reset():", '\tset("hand", get_node("Hand"))']],
    ["a write by a name built at run time whose value may be an object", ["func reset():", '\tset("ha" + "nd", get_node("Hand"))']],
    ["a second declaration of the name", ["class Other:", "\tvar hand = []"]],
    ["a track's path built at run time (its key may be any object)", ["func animate(a):", '\ta.track_set_path(0, "..:ha" + "nd")']],
    ["a track's path set by name", ["func animate(a, p):", '\ta.set("tracks/0/path", p)']],
  ])("may be an object after %s", (_what, extra) => {
    expect(cards(...extra)).toContain("8:10 error dynamic-dispatch funcref(…)")
  })

  it("read by a name built at run time after a write by a built name made it self, may hand out a constant (the attack the rule keeps out)", () => {
    const attack = ["extends Node", 'const TABLE = {"m": "get_name"}', "var tbl = {}", "func _ready():", '\tset("t" + "bl", self)', '\tvar t = tbl.get("TAB" + "LE")', '\tt["m"] = "execute"', '\tOS.call(TABLE["m"], "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(attack).filter((h) => h.includes(" error "))).toEqual(['8:2 error dynamic-dispatch OS.call(…)'])
  })
})
