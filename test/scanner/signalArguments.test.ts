// What a scene connection's signal passes before the binds (checks/signalArguments.ts): the engine's own count of
// values for its signals, each not known (an AnimationPlayer's animation names included: a fifteenth red team gave a
// player names its connection's scene does not show), nulls for a signal only a script emits, Godot 4's unbinds.
import { describe, expect, it } from "vitest"
import { signalArguments } from "../../adapters/scanner/checks/signalArguments.ts"
import { UNREAD } from "../../adapters/scanner/resource/SceneFacts.ts"

describe("the values a connection's signal passes before the binds", () => {
  it("a timer's timeout passes none: no value not known stands before the binds", () => {
    const lists = signalArguments("timeout", 0)
    expect(lists).toContainEqual([])
    expect(lists.flat()).not.toContainEqual(UNREAD)
  })

  it("an engine signal passing values passes values not known (a LineEdit's typed text, a body)", () => {
    expect(signalArguments("text_entered", 0)).toContainEqual([UNREAD])
    expect(signalArguments("body_entered", 0)).toContainEqual([UNREAD])
  })

  it("an AnimationPlayer's animation_started and animation_finished pass a name not known, whatever the scene shows", () => {
    for (const signal of ["animation_started", "animation_finished"]) {
      const lists = signalArguments(signal, 0)
      expect(lists).toContainEqual([UNREAD])
      expect(lists.flat().filter((v) => typeof v === "string")).toEqual([])
    }
  })

  it("a signal no engine class has is a script's: its values, judged at the emit, stand as nulls", () => {
    // As many as the largest position of a name in the dispatch table (4: 3.x Tween.follow_method's second method).
    expect(signalArguments("level_won", 0)).toEqual([[], [null], [null, null], [null, null, null], [null, null, null, null]])
  })

  it("Godot 4's unbinds drops the signal's last values", () => {
    expect(signalArguments("text_entered", 1).flat()).not.toContainEqual(UNREAD)
    expect(signalArguments("level_won", 1)).toEqual([[], [null], [null, null], [null, null, null]])
  })
})
