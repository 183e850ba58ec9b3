// A value track's key written in code may be a method track's key (a Dictionary naming the method) or BBCode
// (analyzeScript.ts #trackKey, #trackValue); a value that is never text nor a Dictionary is neither: `-`, `*`, `/`,
// negation, a built-in value type's constructor (an eighteenth red team's banner animation, `Vector2.ONE * w`).
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const errors = (...body: ReadonlyArray<string>): ReadonlyArray<string> =>
  hits3(["extends Node", "func _ready():", "\tvar a = Animation.new()", "\tvar w = randf()", ...body.map((b) => `\t${b}`), ""].join("\n"))
    .filter((h) => h.includes(" error "))
    .map((h) => `${h.split(":")[0]} ${h.split(" ")[2]}`)

describe("track keys that are never text nor a Dictionary", () => {
  it("vectors and arithmetic are plain keys; a value out of sight stays the dynamic-dispatch error", () => {
    expect(errors("a.track_set_key_value(0, 1, Vector2(w, 100))", "a.track_set_key_value(0, 1, Vector2.ONE * w)", "a.track_set_key_value(0, 1, -w)", "a.track_insert_key(0, 0.5, Color(1, 1, 1) * w)")).toEqual([])
    expect(errors('a.track_set_key_value(0, 1, get_meta("k"))')).toEqual(["5 dynamic-dispatch"])
  })
})
