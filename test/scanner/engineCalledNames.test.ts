// Names the Godot 3 engine calls on a node of any class: an animation's audio track calls `set_stream(stream)`,
// `play(from)` and `stop()` on the node its path names (an eighty-eighth red team's plain Node whose `set_stream(s)` got
// the track's AudioStreamSample, attackProjects133.ts, run by godot3-server), so such a function's parameter holds more
// than the pack's calls or its default pass.
import { describe, expect, it } from "vitest"
import { engineCallsByName } from "../../adapters/scanner/gdscript/engineScriptNames.ts"
import { scan3Files } from "./support/scan.ts"

const node = (name: string): string =>
  ["extends Node", 'const T = {"a": {"m": "get_name"}}', "func _ready():", `\t${name}()`, `func ${name}(s = T["a"]):`, '\tOS.callv(s["m"], ["touch", ["/tmp/x"]])', ""].join("\n")

describe("functions the engine calls by name on any node", () => {
  it("audio-track, resource-owner and viewport calls count as the engine's", () => {
    for (const name of ["set_stream", "play", "stop", "set_unit_db", "set_volume_db", "resource_changed", "get_global_position", "set_text", "drop_data_fw"]) expect(engineCallsByName(name), name).toBe(true)
    expect(engineCallsByName("say")).toBe(false)
  })

  it("`set_stream(s = T[\"a\"])` dispatching by `s`: an error (the engine may hand it a stream); a function of another name: its default followed", async () => {
    const errorsOf = async (text: string) => (await scan3Files({ "res://a.gd": text })).filter((f) => f.split(" ")[1] === "error")
    expect(await errorsOf(node("set_stream"))).toContain("res://a.gd:6 error dynamic-dispatch")
    expect(await errorsOf(node("say"))).toEqual([])
  })
})
