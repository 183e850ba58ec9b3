// A hundred-and-twenty-sixth red team's (run by godot3-server): `h.connect("sig", Engine, "get_frames_drawn")`, then
// `h.call(n, "sig")[0]["target"]` with n built at run time (get_signal_connection_list) gave back Engine, whose
// get_singleton reached ResourceLoader and loaded a scene the game wrote to user://. A dangerous singleton made the
// target of a connection is the dangerous-object-escape error where something may read the connection lists.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const game = (...more: ReadonlyArray<string>): ReadonlyArray<string> =>
  hits3(["extends Node", "signal sig", "func _ready():", '\tconnect("sig", Engine, "get_frames_drawn")', ...more, ""].join("\n")).filter((h) => h.includes(" error "))

describe("a dangerous singleton as a connection's target", () => {
  it("is an error where a call by a name out of sight or a connection list may hand it out", () => {
    expect(game("func read(n):", '\treturn call(n, "sig")')).toEqual(["4:2 error dangerous-object-escape Engine"])
    expect(game("func read():", '\treturn get_signal_connection_list("sig")')).toEqual(["4:2 error dangerous-object-escape Engine"])
  })

  it("is no finding where nothing reads the connections", () => {
    expect(game("func read():", '\treturn call("get_name")')).toEqual([])
  })
})
