// A table's entry handed to the handlers its own strings name (`call(crop["on_harvest"], i, crop)`, a ninety-second
// hunt's farming and card games): `call` on self by a name read from the entry it hands on reaches the functions those
// strings name, each given the entry as a direct call would (constantReads.ts ownHandlersNamedBy). Where every such
// handler only reads it, the table stays followed; a handler that writes into it, keeps it, or that the entry's
// strings do not name among the calling class's own functions, leaves the dispatch an error.
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const CROPS = 'const CROPS = {"wheat": {"grow": 3, "on_harvest": "_harvest_wheat"}, "corn": {"grow": 5, "on_harvest": "_harvest_corn"}}'
const farm = (...handlerTail: ReadonlyArray<string>): string =>
  [
    "extends Node",
    "",
    CROPS,
    "var gold = 0",
    "",
    "func harvest(i, id):",
    "\tvar crop = CROPS[id]",
    '\tcall(crop["on_harvest"], i, crop)',
    '\tcall_deferred(crop.on_harvest, i, crop)',
    "",
    "func _harvest_wheat(i, crop):",
    '\tgold += crop["grow"]',
    "",
    "func _harvest_corn(i, crop):",
    "\tprint(crop.grow)",
    ...handlerTail,
    "",
  ].join("\n")

const SINK = ["func _ready():", '\tOS.callv(CROPS["corn"]["on_harvest"], ["touch", ["/tmp/x"]])']

const errorsOf = async (source: string, extra: Readonly<Record<string, string>> = {}): Promise<ReadonlyArray<string>> =>
  (await scan3Files({ "res://a.gd": source, ...extra })).filter((f) => f.split(" ")[1] === "error")

describe("a table's entry handed to the handlers it names", () => {
  it("handlers that only read the entry: no error", async () => {
    expect(await errorsOf(farm())).toEqual([])
  })

  it.each([
    ["a handler writes into the entry", ['\tcrop["on_harvest"] = "execute"', ...SINK]],
    ["a handler keeps it in a meta", ['\tset_meta("c", crop)', "func _ready():", '\tget_meta("c")["on_harvest"] = "execute"', '\tOS.callv(CROPS["corn"]["on_harvest"], ["touch", ["/tmp/x"]])']],
    ["a handler hands it to a helper that writes", ["\tfix(crop)", "func fix(c):", '\tc["on_harvest"] = "execute"', ...SINK]],
  ])("%s: an error", async (_, tail) => {
    expect((await errorsOf(farm(...tail))).length).toBeGreaterThan(0)
  })

  it("a subclass overriding a handler to write into the entry: an error", async () => {
    const kid = ['extends "res://a.gd"', "", "func _harvest_corn(i, crop):", '\tcrop["on_harvest"] = "execute"', "", ...SINK, ""].join("\n")
    expect((await errorsOf(farm(), { "res://kid.gd": kid })).length).toBeGreaterThan(0)
  })

  it("the entry's key read from an untyped member by an index not known (a ninety-eighth hunt's card game): no error", async () => {
    const cards = ["extends Node", "", 'const CARDS = {"fireball": {"power": 5, "on_play": "_play_damage"}, "heal": {"power": 4, "on_play": "_play_heal"}}', "var hp = 20", 'var hand = ["fireball"]', "", "func play_card(index, target):", "\tvar id = hand[index]", "\tvar card = CARDS[id]", '\tcall(card["on_play"], card, target)', "", "func _play_damage(card, target):", '\thp -= card["power"]', "", "func _play_heal(card, target):", '\thp += card["power"]', ""].join("\n")
    expect(await errorsOf(cards)).toEqual([])
    // Guard: the key written into a container keeps it (what was read by a name not known may be a table), where the
    // member may be an object (given a parameter; one only ever holding an Array reads an element: containerMembers.ts).
    const guard = cards.replace("\tvar card = CARDS[id]", "\tvar seen = {}\n\tseen[id] = 1\n\tvar card = CARDS[id]")
    expect(await errorsOf(guard)).toEqual([])
    expect((await errorsOf(guard.replace("func play_card(", "func deal(h):\n\thand = h\n\nfunc play_card("))).length).toBeGreaterThan(0)
  })

  it("a handler named like an engine method that keeps what it is given: an error", async () => {
    // A ninety-eighth red team's: the deferred call reached the engine's set_meta after `set_script(null)`.
    const named = farm().replace(/_harvest_corn/g, "set_meta")
    expect((await errorsOf(named)).length).toBeGreaterThan(0)
  })

  it("guard: an entry naming a function the calling class lacks (an engine method) is not followed so", async () => {
    const source = farm().replace('"on_harvest": "_harvest_corn"', '"on_harvest": "set_meta"')
    expect((await errorsOf(source)).length).toBeGreaterThan(0)
  })
})
