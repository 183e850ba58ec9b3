// Round 128's hunt (a visual novel): flags loaded from a save with `f.get_var()`, then `flags[k] = start[k]` with keys
// and values from JSON. Decoding without objects refuses every object but an EncodedObjectAsID (core/io/marshalls.cpp
// decode_variant, `p_allow_objects` false), so what get_var() or bytes2var() gives is no Script: a write into it by a
// name out of sight is not a script's source. With objects allowed, the decoding itself is the error it always was.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const save = (read: string): ReadonlyArray<string> =>
  hits3(
    [
      "extends Node",
      "var flags = {}",
      "func _ready():",
      "\tvar f = File.new()",
      '\tif f.open("user://save.dat", File.READ) == OK:',
      `\t\tflags = ${read}`,
      "\t\tf.close()",
      '\tf.open("user://start.json", File.READ)',
      "\tvar start = parse_json(f.get_as_text())",
      "\tfor k in start:",
      "\t\tflags[k] = start[k]",
      "",
    ].join("\n"),
  ).filter((h) => h.includes(" error "))

describe("data decoded without objects", () => {
  it("is no Script: writing into it by a name from data is not a script's source", () => {
    expect(save("f.get_var()")).toEqual([])
    expect(save("f.get_var(false)")).toEqual([])
    expect(save("bytes2var(f.get_buffer(f.get_len()))")).toEqual([])
  })

  it("with objects allowed may be one: the decoding is an error, and so is the write", () => {
    expect(save("f.get_var(true)")).toEqual(["6:11 error get-var-objects File.get_var(true)", "11:3 error script-source-code flags[…] ="])
  })

  it("a value the analysis lost in its place may be a Script", () => {
    expect(save("get_meta(\"flags\")")).toEqual(["11:3 error script-source-code flags[…] ="])
  })
})
