// A table's entry bound to the handler its own key names (a seventy-eighth hunt's match-3 game and idle clicker,
// attackProjects129.ts): `connect("matched", self, combo["callback"], [combo])`. The engine passes the signal's values,
// then the binds (Object::emit_signal), so a bind is the handler's parameter counted from the end; where every
// handler the entry names is the class's own, has no default values and only reads that parameter, the entry is only
// read and the table's names stand (constantReads.ts boundOnlyRead), unless some code may read a connection list,
// which hands the binds out (mine, run by godot3-server in attackProjects129.ts). Every other shape keeps the entry.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

/** `policy-id: the line's code` of each error of the script. */
const errors = (lines: ReadonlyArray<string>): ReadonlyArray<string> =>
  hits3(`${lines.join("\n")}\n`)
    .filter((h) => h.includes(" error "))
    .map((h) => `${h.split(" ")[2]}: ${lines[Number(h.split(":")[0]) - 1]?.trim()}`)

/** A game binding each entry to its handler; `handler` is the body of `_on_small`, `connect` the binding line. */
const game = (handler: ReadonlyArray<string>, connect = '\tconnect("matched", self, combo["callback"], [combo])', params = "n: int, combo: Dictionary"): ReadonlyArray<string> => [
  "extends Node",
  "signal matched(n)",
  'const COMBOS = {"three": {"callback": "_on_small", "m": "get_name", "score": 30}, "four": {"callback": "_on_big", "m": "get_name", "score": 80}}',
  "var held",
  "var total := 0",
  "func _ready():",
  "\tfor key in COMBOS:",
  "\t\twire(COMBOS[key])",
  '\temit_signal("matched", 3)',
  '\tOS.callv(COMBOS["three"]["m"], ["touch", ["/tmp/x"]])',
  "func wire(combo: Dictionary):",
  connect,
  `func _on_small(${params}):`,
  ...handler,
  "func _on_big(n: int, combo: Dictionary):",
  '\ttotal += combo["score"] * n',
]

const CALLV = 'os-process: OS.callv(COMBOS["three"]["m"], ["touch", ["/tmp/x"]])'

describe("an entry bound to the handler its key names", () => {
  it("handlers that only read it: the table's name stands (OS's get_name), no error", () => {
    expect(errors(game(['\ttotal += combo["score"] * n']))).toEqual([])
    // The idle clicker's shape: the entry handed through a helper first, a Timer's signal with no value.
    expect(errors(game(['\ttotal += combo["score"]'], '\tvar t := Timer.new()\n\tadd_child(t)\n\tt.connect("timeout", self, combo["callback"], [combo])', "combo: Dictionary"))).toEqual([])
    // Flags without CONNECT_PERSIST.
    for (const flags of ["0", "1", "4", "CONNECT_ONESHOT", "Object.CONNECT_DEFERRED"]) {
      expect(errors(game(['\ttotal += combo["score"] * n'], `\tconnect("matched", self, combo["callback"], [combo], ${flags})`)), flags).toEqual([])
    }
  })

  it("a handler keeping it: the table may change, so its name is not known (dispatch error)", () => {
    expect(errors(game(["\theld = combo", '\theld["m"] = "execute"']))).toContain(CALLV.replace("os-process", "dynamic-dispatch"))
  })

  it("a handler with default values, a target not self, a name not the class's own, a connection list read, a persisted connection, a name an engine method keeps by, a script that may go, a bind not the entry's: not followed", () => {
    const unknown = CALLV.replace("os-process", "dynamic-dispatch")
    expect(errors(game(['\ttotal += combo["score"]'], undefined, "n: int, combo: Dictionary = {}"))).toContain(unknown)
    expect(errors(game(['\ttotal += combo["score"]'], '\tconnect("matched", get_parent(), combo["callback"], [combo])'))).toContain(unknown)
    expect(errors(game(['\ttotal += combo["score"]'], '\tconnect("matched", self, "set_meta", [combo])'))).toContain(unknown)
    // A connection list hands the binds out (3.x Object::_get_signal_connection_list): named anyhow, nothing bound is followed.
    for (const list of ['get_signal_connection_list("matched")', 'call("get_signal_connection_list", "matched")']) {
      expect(errors(game(['\ttotal += combo["score"]', `\t${list}[0]["binds"][0]["m"] = "execute"`]))).toContain(unknown)
    }
    // A persisted connection is packed with its binds, which SceneState.get_connection_binds hands back (a seventy-ninth red team's).
    for (const flags of ["2", "3", "CONNECT_PERSIST", "Object.CONNECT_PERSIST", "get_meta(\"f\")"]) {
      expect(errors(game(['\ttotal += combo["score"]'], `\tconnect("matched", self, combo["callback"], [combo], ${flags})`)), flags).toContain(unknown)
    }
    // A handler named like an engine method that keeps what it is given: an object whose script is gone by the emit
    // runs the engine's (an eightieth red team's `set_meta`, attackProjects131.ts).
    // And one bound with a leading `_`, left out of the class reference (PopupMenu's `_set_items`: an eighty-second red team's).
    for (const name of ["set_meta", "add_item", "store_value", "_set_items", "_add_data"]) {
      const own = game(['\ttotal += combo["score"]'], `\tconnect("matched", self, "${name}", [combo])`).map((l) => l.replace("func _on_small(", `func ${name}(`))
      expect(errors(own), name).toContain(unknown)
    }
    // An object that may lose or swap its script runs the engine's method of the name, or another script's, at the emit.
    for (const swap of ['\tget_child(0).set_script(null)', '\tget_child(0).script = null', '\tget_child(0).set("script", null)']) {
      expect(errors(game(['\ttotal += combo["score"]', swap])), swap).toContain(unknown)
    }
    // The entry lands in `n`'s place when a second bind follows it: `n` kept.
    expect(errors(game(["\theld = n", '\theld["m"] = "execute"'], '\tconnect("matched", self, combo["callback"], [combo, 1])', "n, combo"))).toContain(unknown)
  })
})

describe("an entry bound and naming its handler, written out in both places", () => {
  // A hundred-and-fourteenth hunt's tactics game: `b.connect("pressed", self, ABILITIES[id]["method"], [ABILITIES[id]])`.
  const tactics = (handler: ReadonlyArray<string>, bind = "[ABILITIES[id]]"): ReadonlyArray<string> => [
    "extends Node",
    'const ABILITIES = {"strike": {"method": "_strike", "damage": 5, "m": "get_name"}}',
    "var hp = 10",
    "func _ready():",
    '	use_ability("strike")',
    '	OS.callv(ABILITIES["strike"]["m"], ["touch", ["/tmp/x"]])',
    "func use_ability(id):",
    "	var b = Button.new()",
    "	add_child(b)",
    `	b.connect("pressed", self, ABILITIES[id]["method"], ${bind})`,
    "func _strike(ab):",
    ...handler,
  ]
  const SINK = 'dynamic-dispatch: OS.callv(ABILITIES["strike"]["m"], ["touch", ["/tmp/x"]])'

  it("is the same entry as a local holding it: a handler that only reads it keeps the table followed", () => {
    expect(errors(tactics(['	hp -= ab["damage"]']))).toEqual([])
  })

  it("a handler writing into it, or another entry bound, stops the table being followed", () => {
    expect(errors(tactics(['	hp -= ab["damage"]', '	ab["m"] = "execute"']))).toContain(SINK)
    expect(errors(tactics(['	ab["m"] = "execute"'], '[ABILITIES["strike"]]'))).toContain(SINK)
  })
})

