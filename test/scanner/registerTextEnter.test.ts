// A hundred-and-seventh red team's: AcceptDialog.register_text_enter(edit) connects the edit's text_entered to the
// dialog's confirmation, so in a pack that creates a FileDialog, registering on what may be its internal make-folder
// dialog lets any Enter (emitted by code) run _make_dir_confirm. An error there; no finding in a pack without one.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const main = (...body: ReadonlyArray<string>): string => ["extends Node", "", "func _ready():", ...body.map((l) => `\t${l}`), '\tvar edit = LineEdit.new()', '\tget_node("Dialog").register_text_enter(edit)', ""].join("\n")
const internal = (found: ReadonlyArray<string>): ReadonlyArray<string> => found.filter((h) => h.includes("engine-internal-method")).map((h) => h.split(" ")[0] ?? "")

describe("register_text_enter", () => {
  it("is an error on what may be a FileDialog's internal dialog, in a pack that creates one", () => {
    expect(internal(hits3(main("add_child(FileDialog.new())")))).toEqual(["6:2"])
  })

  it("is no finding in a pack without such a control", () => {
    expect(hits3(main())).toEqual([])
  })
})
