// Round 128's hunt (a roguelike): `var player = Player.new()`, items from JSON applied with `player.set(stat,
// player.get(stat) + amount)`. A write by a name out of sight on the member itself reaches a member of self's class
// (or sets an Animation's track path) only if the member holds such an object, which only another write can give it
// first: where none of its values is one, the member keeps its values (memberWrites.ts) and holds no Script.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const game = (...extra: ReadonlyArray<string>): ReadonlyArray<string> =>
  hits3(
    [
      "extends Node",
      "class Player:",
      "\tvar hp = 10",
      "var player = Player.new()",
      "func apply_effect(stat, amount):",
      "\tplayer.set(stat, player.get(stat) + amount)",
      "func _ready():",
      "\tvar f = File.new()",
      '\tf.open("user://items.json", File.READ)',
      "\tfor e in parse_json(f.get_as_text()):",
      "\t\tapply_effect(e.stat, e.amount)",
      ...extra,
      "",
    ].join("\n"),
  ).filter((h) => h.includes(" error "))

describe("a write by a name out of sight on a member holding an instance of another class", () => {
  it("leaves the member that instance: no script's source is written", () => {
    expect(game()).toEqual([])
    expect(game("func track(p):", '\tplayer.set("tracks/0/path", p)')).toEqual([])
  })

  it("may reach self's members where some write gives the member an object of self's class", () => {
    expect(game("func swap():", "\tplayer = self")).toEqual(["6:2 error script-source-code set(…)"])
    expect(game("func swap(o):", "\tplayer = o")).toEqual(["6:2 error script-source-code set(…)"])
  })

  it("may set a track path where some write gives the member an Animation", () => {
    expect(game("func swap():", "\tplayer = Animation.new()", "func track(p):", '\tplayer.set("tracks/0/path", p)')).toEqual(["6:2 error script-source-code set(…)", '15:2 error script-source-code set("tracks/0/path")'])
  })
})
