// What a scene connection's signal passes before the binds (checks/signalArguments.ts): the engine's own count of
// values for its signals, an AnimationPlayer's animation names where the scene gives them, nulls for a signal
// only a script emits, Godot 4's unbinds.
import { describe, expect, it } from "vitest"
import { signalArguments } from "../../adapters/scanner/checks/signalArguments.ts"
import { UNREAD } from "../../adapters/scanner/resource/SceneFacts.ts"

const PLAYER = { type: "AnimationPlayer", animations: ["intro", "set_source_code"] }

describe("the values a connection's signal passes before the binds", () => {
  it("a timer's timeout passes none: no value not known stands before the binds", () => {
    const lists = signalArguments("timeout", { type: "Timer", animations: null }, 0)
    expect(lists).toContainEqual([])
    expect(lists.flat()).not.toContainEqual(UNREAD)
  })

  it("an engine signal passing values passes values not known (a LineEdit's typed text)", () => {
    expect(signalArguments("text_entered", { type: "LineEdit", animations: null }, 0)).toContainEqual([UNREAD])
    expect(signalArguments("body_entered", undefined, 0)).toContainEqual([UNREAD])
  })

  it("an AnimationPlayer the scene gives its animations passes their names; one the scene does not say passes a value not known", () => {
    const named = signalArguments("animation_finished", PLAYER, 0)
    expect(named).toContainEqual(["intro"])
    expect(named).toContainEqual(["set_source_code"])
    expect(named).not.toContainEqual([UNREAD])
    expect(signalArguments("animation_started", { type: null, animations: null }, 0)).toContainEqual([UNREAD])
    expect(signalArguments("animation_started", { type: "AnimationPlayer", animations: null }, 0)).toContainEqual([UNREAD])
  })

  it("a signal no engine class has is a script's: its values, judged at the emit, stand as nulls", () => {
    expect(signalArguments("level_won", undefined, 0)).toEqual([[], [null], [null, null]])
  })

  it("Godot 4's unbinds drops the signal's last values", () => {
    expect(signalArguments("text_entered", undefined, 1).flat()).not.toContainEqual(UNREAD)
    expect(signalArguments("level_won", undefined, 1)).toEqual([[], [null]])
  })
})
