// A script's constants read by a built name (`o[k]`, `o.get(k)`) through any object stop being followed
// (gdscript/constantReads.ts): three red teams in a row reached `self` through yet another holder, and the last
// round's Limits named members of other objects and parameters (attackProjects111.ts runs those in godot3-server).
// Left out is only what cannot be an object or name a constant (gdscript/valueNames.ts): a value the engine holds to
// a type that is never an object, parsed JSON, literals, and number keys. Any receiver shape, with any key shape, is
// an error exactly when the receiver may be an object and the key may be a name.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

/** A receiver `r`: the lines declaring it (members after `#member`), and whether it may be an object. */
interface Receiver {
  readonly members: ReadonlyArray<string>
  readonly locals: ReadonlyArray<string>
  /** The function's parameters (`pick(r, k)` is called with self). */
  readonly params?: string
  readonly object: boolean
}

const RECEIVERS: Readonly<Record<string, Receiver>> = {
  typedMember: { members: ["var r: Dictionary = {}"], locals: [], object: false },
  inferredMember: { members: ["var r := {}"], locals: [], object: false },
  typedArrayMember: { members: ["var r: Array = []"], locals: [], object: false },
  constantTable: { members: ['const r = {"a": 1}'], locals: [], object: false },
  parsedLocal: { members: [], locals: ['\tvar r = parse_json("{}")'], object: false },
  jsonResult: { members: [], locals: ['\tvar r = JSON.parse("{}").result'], object: false },
  literalLocal: { members: [], locals: ["\tvar r = {}", '\tr = {"b": 2}'], object: false },
  copiedLocal: { members: [], locals: ["\tvar src = {}", "\tvar r = src.duplicate()"], object: false },
  typedParam: { members: [], locals: [], params: "r: Dictionary", object: false },
  parsedResult: { members: [], locals: ['\tvar p = JSON.parse("{}")', "\tvar r = p.result"], object: false },
  dataTableElement: { members: ['const T = {"a": {"b": "c"}}'], locals: ['\tvar r = T["a"]'], object: false },
  typedParamObjectDefault: { members: ["func me():", "\treturn self"], locals: [], params: "r: Dictionary = me()", object: true },
  typedMemberElement: { members: ['var m: Dictionary = {"a": {}}'], locals: ['\tvar r = m["a"]'], object: true },
  untypedParam: { members: [], locals: [], params: "r", object: true },
  // Untyped and given a parameter somewhere: it may hold any object.
  untypedMember: { members: ["var r = {}", "func give(o):", "\tr = o"], locals: [], object: true },
  // Untyped, only ever an Array or a Dictionary (containerMembers.ts): no object.
  containerMember: { members: ["var r = {}"], locals: [], object: false },
  selfLocal: { members: [], locals: ["\tvar r = self"], object: true },
  heldMember: { members: ["var h = Holder.new()", "class Holder:", "\tvar t"], locals: ["\th.t = self", "\tvar r = h.t"], object: true },
  reassignedLocal: { members: [], locals: ['\tvar r = parse_json("{}")', "\tr = self"], object: true },
  loopElement: { members: [], locals: ["\tvar r", "\tfor o in [self]:", "\t\tr = o"], object: true },
  returned: { members: ["func me():", "\treturn self"], locals: ["\tvar r = me()"], object: true },
  // A type the pack names is its class, even named like a value type Godot 3 lacks (a sixty-sixth red team's).
  // Its class holds a constant table, so it is no plain class (whose objects hold none).
  packNamedType: { members: ["class Quaternion extends Reference:", '\tconst T = {"a": 1}'], locals: ["\tvar r: Quaternion = Quaternion.new()"], object: true },
}

/** A key `k`: the lines giving it, and whether it may be a name. */
const KEYS: Readonly<Record<string, { readonly lines: ReadonlyArray<string>; readonly name: boolean }>> = {
  built: { lines: ['\tvar k = "AC" + str(randi())'], name: true },
  fromData: { lines: ['\tvar k = parse_json("{}")["n"]'], name: true },
  counted: { lines: ["\tvar k = 0", "\tk += 1"], name: false },
  typedInt: { lines: ["\tvar k: int = randi()"], name: false },
  remainder: { lines: ["\tvar k = randi() % 3"], name: false },
}

/** The ways to read by the key, each keeping what it read (so it could be changed). */
const READS: ReadonlyArray<string> = ["\tvar t = r[k]", "\tvar t = r.get(k)"]

const source = (receiver: Receiver, key: ReadonlyArray<string>, read: string): string =>
  `${[
    "extends Node",
    'const ACTIONS = {"get_name": []}',
    ...receiver.members,
    "",
    "func _ready():",
    `\tpick(${receiver.params === undefined ? "" : "self"})`,
    "\tfor action in ACTIONS:",
    "\t\tOS.callv(action, ACTIONS[action])",
    "",
    `func pick(${receiver.params ?? ""}):`,
    ...receiver.locals,
    ...key,
    read,
    '\tt["execute"] = []',
  ].join("\n")}\n`

const dispatchErrors = (text: string): ReadonlyArray<string> => hits3(text).filter((h) => h.includes(" error ") && h.includes("dynamic-dispatch"))

describe("a read by a built name on what may be an object stops the constants being followed (valueNames.ts)", () => {
  it("every receiver with every key: the dispatch over the constant is an error exactly when the receiver may be an object and the key a name", () => {
    for (const [r, receiver] of Object.entries(RECEIVERS)) {
      for (const [k, key] of Object.entries(KEYS)) {
        for (const read of READS) {
          // Object.get by a number is a Dictionary's or names nothing; `r.get(k)` of a value is the value's own get.
          expect(dispatchErrors(source(receiver, key.lines, read)).length > 0, `${r} ${k} ${read}`).toBe(receiver.object && key.name)
        }
      }
    }
  })

  it("sets are not reads: `o[k] = v` on an untyped member leaves the constants followed", () => {
    const text = source(RECEIVERS["untypedMember"]!, KEYS["built"]!.lines, "\tr[k] = 1\n\tvar t = {}")
    expect(dispatchErrors(text)).toEqual([])
  })

  it("a local typed Dictionary stays one whatever it is given later (the engine refuses the assignment); untyped, it holds what it is given", () => {
    const later = ["\tr = get_node(\".\")"]
    expect(dispatchErrors(source({ members: [], locals: ["\tvar r: Dictionary = {}", ...later], object: false }, KEYS["built"]!.lines, READS[0]!))).toEqual([])
    expect(dispatchErrors(source({ members: [], locals: ["\tvar r = {}", ...later], object: true }, KEYS["built"]!.lines, READS[0]!)).length).toBeGreaterThan(0)
  })

  it("a function only the pack's calls reach, given a constant table at each, reads it as a value (a sixty-first hunt's state machine)", () => {
    const text = `${[
      "extends Node",
      'const STATES = {"idle": "_idle"}',
      'const SPEED = {"idle": 1.0}',
      "func _ready():",
      "\tconnect(\"ready\", self, STATES[\"idle\"])",
      '\tprint(value_or(SPEED, "idle" + str(randi()), 0.0))',
      "func value_or(table, key, fallback):",
      "\treturn table[key] if table.has(key) else fallback",
      "func _idle():",
      "\tpass",
    ].join("\n")}\n`
    expect(dispatchErrors(text)).toEqual([])
    expect(dispatchErrors(text.replace("value_or(SPEED,", "value_or(self,"))).not.toEqual([])
  })

  /** A script whose `_ready` runs `body`, then dispatches over ACTIONS on OS (an error once ACTIONS is not followed). */
  const withDispatch = (head: ReadonlyArray<string>, body: ReadonlyArray<string>): string =>
    `${["extends Node", 'const ACTIONS = {"get_name": []}', ...head, "func _ready():", ...body, "\tfor action in ACTIONS:", "\t\tOS.callv(action, ACTIONS[action])"].join("\n")}\n`

  /** A look-alike (its head and body), and its attack form (another head, and another body where given). */
  type Case = readonly [string, ReadonlyArray<string>, ReadonlyArray<string>, ReadonlyArray<string>, ReadonlyArray<string>?]

  const CASES: ReadonlyArray<Case> = [
    [
      "what a function of the class gives back (a sixty-first hunt's cooldowns)",
      ["var cooldowns := {}", "func current():", "\treturn cooldowns.duplicate()"],
      ["\tvar cd = current()", "\tvar ready = []", "\tfor k in cd:", "\t\tready.append(cd[k])"],
      ["func current():", "\treturn self"],
    ],
    [
      "a method named by a constant table without `get` (funcref(self, STATES[s]))",
      ['const STATES = {"idle": "_idle"}', "func _idle():", "\tpass"],
      ['\tvar f = funcref(self, STATES["idle" + str(randi())])', "\tf.call_func()"],
      ['const STATES = {"idle": "get"}', "func _idle():", "\tpass"],
    ],
    [
      "a loop over a table of member names none of which is a constant's (a save restoring members by name)",
      ['const SAVED = ["hp", "gold"]', "var hp = 1", "var gold = 2", "var data = {}"],
      ["\tfor k in SAVED:", "\t\tdata[k] = get(k)"],
      ['const SAVED = ["hp", "ACTIONS"]', "var hp = 1", "var gold = 2", "var data = {}"],
    ],
    [
      "a read that is only tested (`if actor.get(status):`, a sixty-second hunt's battle)",
      ["var statuses = []"],
      ["\tvar actor = get_parent()", "\tfor status in statuses:", "\t\tif actor.get(status):", "\t\t\tprint(status)"],
      ["var statuses = []", "func _init():", '\tstatuses = ["ACTIONS"]'],
    ],
    [
      "a local given a read, then only compared and clamped (Godot 3's clamp gives a number)",
      [],
      ["\tvar actor = get_parent()", '\tvar limit = actor.get("max_" + str(randi()))', "\tprint(clamp(randi(), 0, limit))"],
      [],
      ["\tvar actor = get_parent()", '\tvar limit = actor.get("max_" + str(randi()))', "\tprint(clamp(randi(), 0, limit))", "\tvar kept = [limit]"],
    ],
    [
      "a key read from a table of member names (`get(DONE_WHEN[step])`, the hunt's tutorial)",
      ['const DONE_WHEN = {"move": "has_moved"}', "var has_moved = false"],
      ["\tvar step = str(randi())", "\tvar done = get_parent().get(DONE_WHEN[step])", "\tvar copy = [done]"],
      ['const DONE_WHEN = {"move": "ACTIONS"}', "var has_moved = false"],
    ],
    [
      "an object typed with a class of the pack that has no constant Array or Dictionary (`card: Card`, the hunt's cards)",
      ["class Card:", "\tvar power = 1", "func buff(card: Card, stat: String):", "\tvar before = card.get(stat)", "\tvar kept = [before]"],
      ["\tbuff(Card.new(), str(randi()))"],
      ["class Card:", '\tconst T = {"a": 1}', "func buff(card: Card, stat: String):", "\tvar before = card.get(stat)", "\tvar kept = [before]"],
    ],
    [
      "a read formatted or printed through an Array literal (`\"%s: %d\" % [k, v]`, a sixty-third hunt's achievements)",
      [],
      ['\tprint("%s" % [get_parent().get(str(randi()))])'],
      [],
      ["\tvar kept = [get_parent().get(str(randi()))]"],
    ],
    [
      "a key of a data table read with Godot 3's member syntax (`recipe.needs[n]`, the hunt's crafting bench)",
      ['const RECIPES = {"axe": {"needs": {"wood": 1}}}'],
      ['\tvar r = RECIPES["axe"]', "\tfor n in r.needs:", "\t\tvar kept = [r.needs[n]]"],
      ['const RECIPES = {"axe": {"needs": {"wood": 1}}}'],
      ["\tvar r = get_parent()", "\tfor n in r.needs:", "\t\tvar kept = [r.needs[n]]"],
    ],
  ]

  for (const [name, head, body, attackHead, attackBody] of CASES) {
    it(`${name} keeps the constants followed; its attack form does not`, () => {
      expect(dispatchErrors(withDispatch(head, body))).toEqual([])
      expect(dispatchErrors(withDispatch(attackHead, attackBody ?? body))).not.toEqual([])
    })
  }
})
