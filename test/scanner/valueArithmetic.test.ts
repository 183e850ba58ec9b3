// Values that name no property (a hundred-and-third and a hundred-and-eighth hunt's): Godot subtracts only numbers,
// vectors, colours and quaternions (Variant::evaluate OP_SUBTRACT), adds such a value only to its kind, and a vector's
// arithmetic methods give numbers or vectors; funcref() gives a FuncRef whatever its name. A grid written by such keys,
// or a table of such handlers, replaces no script's source. A value that may be text still does.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const grid = (...body: ReadonlyArray<string>): string =>
  ["extends Node", "", "var grid = []", "", "func _ready():", "\tfor x in range(4):", "\t\tgrid.append([null, null, null, null])", "", "func put(u, to):", "\tgrid[to.x][to.y] = u", "", ...body, ""].join("\n")
const sourceHits = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.includes("script-source-code"))

describe("keys that are numbers or vectors", () => {
  it("a step of `(a - b).sign()` added to a position names no property", () => {
    expect(sourceHits(hits3(grid("func chase(u, target):", "\tvar step = (target.grid_pos - u.grid_pos).sign()", "\tif step.x != 0:", "\t\tstep.y = 0", "\tput(u, u.grid_pos + step)")))).toEqual([])
  })

  it("a vector's distance or normal is a number or a vector", () => {
    expect(sourceHits(hits3(grid("func near(u, target):", "\tput(u, (target.pos - u.pos).normalized() * u.pos.distance_to(target.pos))")))).toEqual([])
  })

  it("a key that may be text still replaces a script's source", () => {
    expect(sourceHits(hits3(grid("func named(u, target):", "\tput(u, {\"x\": target.name, \"y\": str(u)})"))).map((h) => h.split(" ")[0])).toEqual(["10:2"])
  })
})

describe("funcref by a name built at run time", () => {
  it("is a FuncRef, no text: a table of handlers beside a write by names not constant is no script's source", () => {
    const main = ["extends Node", "", "enum State { IDLE, CHASE }", "var handlers = {}", "var pool = []", "", "func _ready():", "\tfor st in State.keys():", '\t\thandlers[State[st]] = funcref(self, "_state_" + st.to_lower())', "", "func spawn(props):", "\tvar b = pool.pop_back()", "\tfor k in props:", "\t\tb.set(k, props[k])", "", "func _state_idle():", "\tpass", "", "func _state_chase():", "\tpass", ""].join("\n")
    expect(sourceHits(hits3(main)).map((h) => h.split(" ")[0])).toEqual(["14:3"])
  })
})
