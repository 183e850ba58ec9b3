// An autoload with a feature-tagged key (`Towers.nofeat="*res://…"`, a seventy-third red team's, attackProjects124.ts,
// run by godot3-server): the engine keeps the base where the player's machine lacks the feature
// (ProjectSettings::_set), so the autoload's script is not pinned to one and the scanner leaves the name out.
import { describe, expect, it } from "vitest"
import { autoloadEntries } from "../../adapters/scanner/checks/projectSettingsCheck.ts"

describe("autoload entries of the project settings", () => {
  it("an autoload is its script", () => {
    expect([...autoloadEntries('[autoload]\nTowers="*res://towers.gd"\nQuit="*res://quit.gd"\n', true)]).toEqual([["Towers", "res://towers.gd"], ["Quit", "res://quit.gd"]])
  })

  it.each([
    ["after the base", 'Towers="*res://live.gd"\nTowers.nofeat="*res://decoy.gd"'],
    ["before the base", 'Towers.nofeat="*res://decoy.gd"\nTowers="*res://live.gd"'],
    ["a platform's", 'Towers="*res://live.gd"\nTowers.Android="*res://decoy.gd"'],
  ])("a feature-tagged key %s: the name is left out, the others kept", (_name, lines) => {
    expect([...autoloadEntries(`[autoload]\n${lines}\nQuit="*res://quit.gd"\n`, true)]).toEqual([["Quit", "res://quit.gd"]])
  })
})
