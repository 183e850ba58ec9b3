// A value track's key written in code may be a method track's key (a Dictionary naming the method) or BBCode
// (analyzeScript.ts #trackKey, #trackValue); a value that is never text nor a Dictionary is neither: `-`, `*`, `/`,
// negation, a built-in value type's constructor (an eighteenth red team's banner animation, `Vector2.ONE * w`).
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const errors = (...body: ReadonlyArray<string>): ReadonlyArray<string> => errorsBeside({}, ...body)

/** The errors of the main script (`body` in `_ready`, from line 5) in a pack with the `others` scripts. */
const errorsBeside = (others: Readonly<Record<string, string>>, ...body: ReadonlyArray<string>): ReadonlyArray<string> =>
  hits3(["extends Node", "func _ready():", "\tvar a = Animation.new()", "\tvar w = randf()", ...body.map((b) => `\t${b}`), ""].join("\n"), others)
    .filter((h) => h.includes(" error "))
    .map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)

describe("track keys that are never text nor a Dictionary", () => {
  it("vectors and arithmetic are plain keys; a value out of sight stays the dynamic-dispatch error", () => {
    expect(errors("a.track_set_key_value(0, 1, Vector2(w, 100))", "a.track_set_key_value(0, 1, Vector2.ONE * w)", "a.track_set_key_value(0, 1, -w)", "a.track_insert_key(0, 0.5, Color(1, 1, 1) * w)")).toEqual([])
    expect(errors('a.track_set_key_value(0, 1, get_meta("k"))')).toEqual(["5 dynamic-dispatch"])
  })

  it("a Godot 3 engine property of a node, declared by every class as neither Dictionary nor Variant, is a plain key (red team 18b's banner)", () => {
    expect(errors("a.track_set_key_value(0, 1, $Banner.rect_position)", 'a.track_insert_key(0, 0.5, get_node("Banner").modulate)')).toEqual([])
    // A Dictionary or Variant property somewhere (GridMap's `data`, `__meta__`), a Dictionary's key, an unknown name: still the error.
    expect(errors("a.track_set_key_value(0, 1, $Banner.data)")).toEqual(["5 dynamic-dispatch"])
    expect(errors("a.track_set_key_value(0, 1, $Banner.__meta__)")).toEqual(["5 dynamic-dispatch"])
    expect(errors('var d = {"rect_position": {"method": "queue_free"}}', "a.track_set_key_value(0, 1, d.rect_position)").length).toBeGreaterThan(0)
    expect(errors("a.track_set_key_value(0, 1, $Banner.no_such_property)")).toEqual(["5 dynamic-dispatch"])
    // A class of the pack answers first (core/object.cpp Object::get asks the script instance before the class's properties): its `_get`, a member of that name.
    expect(errorsBeside({ "res://game/banner.gd": "extends Label\nfunc _get(p):\n\treturn {}\n" }, "a.track_set_key_value(0, 1, $Banner.rect_position)")).toEqual(["5 dynamic-dispatch"])
    expect(errorsBeside({ "res://game/banner.gd": "extends Node\nvar rect_position = {}\n" }, "a.track_set_key_value(0, 1, $Banner.rect_position)")).toEqual(["5 dynamic-dispatch"])
  })
})
