// A fifty-eighth red team's redirects and folders (the engine-run packs are attackProjects107.ts): a `.remap` or
// `.import` of the pack that names no target the engine takes leaves the path as it is, so the engine loads the
// original, which only the disk has when the pack lacks it; and a file of the pack under a folder where user:// lies,
// seen from the player's home folder, can be redirected by a `.remap` the game writes there.
import { describe, expect, it } from "vitest"
import { userDataFolderOf } from "../../adapters/scanner/checks/nameChecks.ts"
import { lines } from "./fixtures/godotProjects.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://main.tscn", min_players: 1, max_players: 2 })

/** Error findings (`file:line rule`) of a Godot 3 pack of `files` (path → text) beside its manifest (which names no scene it holds). */
const errors = async (files: Readonly<Record<string, string>>): Promise<ReadonlyArray<string>> => {
  const entries = [["res://manifest.json", MANIFEST], ...Object.entries(files)].map(([path, text]) => ({ path: path ?? "", data: utf8(text ?? "") }))
  const report = await scanBytes(writePack({ format: 1, engine: [3, 2, 3], entries }))
  return report.findings.filter((f) => f.severity === "error" && f.rule !== "entry-scene-missing").map((f) => `${f.file}:${f.line ?? ""} ${f.rule}`)
}

const LOADS_MOD = lines("extends Node", "func _ready():", '\tprint(load("res://game/mod.gd"))')

describe("a redirect naming no target the engine takes", () => {
  it("leaves the path to the file itself: a load of it is read from the disk when the pack lacks the file", async () => {
    const keep = lines("[remap]", "", 'importer="keep"')
    expect(await errors({ "res://game/main.gd": LOADS_MOD, "res://game/mod.gd.import": keep })).toContain("res://game/main.gd:3 banned-api")
    expect(await errors({ "res://game/main.gd": LOADS_MOD, "res://game/mod.gd.remap": lines("[remap]", "") })).toContain("res://game/main.gd:3 banned-api")
    // The .remap reader stops at its first assignment: a `path` after another key is never taken.
    expect(await errors({ "res://game/main.gd": LOADS_MOD, "res://game/mod.gd.remap": lines("[remap]", "", 'type="Script"', 'path="res://game/other.gd"'), "res://game/other.gd": "extends Node\n" })).toContain("res://game/main.gd:3 banned-api")
  })

  it("is nothing where the pack holds the file (a file kept as it is), or nothing loads it", async () => {
    expect(await errors({ "res://game/main.gd": LOADS_MOD, "res://game/mod.gd.import": lines("[remap]", "", 'importer="keep"'), "res://game/mod.gd": "extends Node\n" })).toEqual([])
    expect(await errors({ "res://game/main.gd": lines("extends Node"), "res://img/menu.png.import": lines("[remap]", "", 'importer="keep"') })).toEqual([])
  })
})

describe("files of the pack where user:// lies, seen from the home folder", () => {
  it("names the folder on every system, whatever the case", () => {
    expect(userDataFolderOf("res://.local/share/godot/app_userdata/Game/level.tres")).toBe("res://.local/share/")
    expect(userDataFolderOf("res://AppData/Roaming/Godot/app_userdata/Game/level.tres")).toBe("res://appdata/roaming/")
    expect(userDataFolderOf("res://Library/Application Support/Game/level.tres")).toBe("res://library/application support/")
    expect(userDataFolderOf("res://local/share/level.tres")).toBeNull()
    expect(userDataFolderOf("res://levels/.local/share/x.tres")).toBeNull()
  })

  it("is a pack-hostile-path error on the entry, and nothing on a file elsewhere", async () => {
    const manifest = MANIFEST
    const report = await scanBytes(
      writePack({
        format: 1,
        entries: [
          { path: "res://manifest.json", data: utf8(manifest) },
          { path: "res://.local/share/godot/app_userdata/G/lvl.tres", data: utf8(lines('[gd_resource type="Resource" format=2]', "", "[resource]")) },
          { path: "res://levels/lvl.tres", data: utf8(lines('[gd_resource type="Resource" format=2]', "", "[resource]")) },
        ],
      }),
    )
    expect(report.findings.filter((f) => f.rule === "pack-hostile-path").map((f) => `${f.file} ${f.severity}`)).toEqual(["res://.local/share/godot/app_userdata/G/lvl.tres error"])
  })
})
