// Project settings that load or redirect code (project.godot's text form; project.binary is decoded to
// it, and exported by the real engine in attackCorpus.test.ts): a target outside the pack is a
// hostile path at its line, the SDK's EngineGame registered by the pack is flagged.
import { describe, expect, it } from "vitest"
import { projectSettingsFindings } from "../../adapters/scanner/checks/projectSettingsCheck.ts"
import { lines } from "./fixtures/godotProjects.ts"

const findings = (text: string): ReadonlyArray<string> => projectSettingsFindings(text, "res://project.binary", "res://project.binary").map((f) => `${f.line} ${f.rule} ${f.pattern}`)

describe("project settings", () => {
  it("translation remaps, path remaps, autoloads, translations and the main scene outside the pack", () => {
    const text = lines(
      "config_version=4", // 1
      "", // 2
      "[application]", // 3
      "", // 4
      'run/main_scene="user://main.tscn"', // 5
      "", // 6
      "[autoload]", // 7
      "", // 8
      'Payload="*user://payload.gd"', // 9
      'Fine="*res://fine.gd"', // 10
      "", // 11
      "[locale]", // 12
      "", // 13
      "translation_remaps={", // 14
      '"res://attack/benign.gd": PoolStringArray( "res://fr.gd:fr", "user://evil.gd:en" )', // 15
      "}", // 16
      'translations=PoolStringArray( "/tmp/t.translation" )', // 17
      "", // 18
      "[path_remap]", // 19
      "", // 20
      'remapped_paths=PoolStringArray( "user://ignored.gd", "res://x.gd", "res://a.gd", "C:/b.gd" )', // 21
    )
    expect(findings(text)).toEqual([
      "5 pack-hostile-path project setting application/run/main_scene",
      "9 pack-hostile-path project setting autoload/Payload",
      "15 pack-hostile-path project setting locale/translation_remaps",
      "17 pack-hostile-path project setting locale/translations",
      "21 pack-hostile-path project setting path_remap/remapped_paths",
    ])
  })

  it("global classes: a path outside the pack, and the SDK's EngineGame registered by the pack (Godot 3 settings and Godot 4's class cache)", () => {
    const godot3 = lines("_global_script_classes=[ {", '"base": "Node2D",', '"class": "EngineGame",', '"language": "GDScript",', '"path": "res://game/fake.gd"', "}, {", '"base": "Node",', '"class": "Mod",', '"path": "user://mod.gd"', "} ]", "", "[application]")
    expect(findings(godot3)).toEqual(["3 entry-scene-not-engine-game class_name EngineGame", "9 pack-hostile-path project setting _global_script_classes"])
    const godot4 = lines("list=Array[Dictionary]([{", '"base": &"Node",', '"class": &"Mod",', '"icon": "",', '"language": &"GDScript",', '"path": "/home/u/mod.gd"', "}])")
    expect(findings(godot4)).toEqual(["6 pack-hostile-path project setting list"])
  })

  it("an object in the settings given a script", () => {
    const text = lines("[input]", "", "jump={", '"events": [ Object(InputEventKey,"resource_local_to_scene":false,"script":Object(GDScript,"source_code":"x")) ]', "}")
    expect(findings(text)).toEqual(["4 pack-hostile-path project setting input/jump"])
  })

  it("ordinary settings: res:// and uid:// paths, log files in user://, input events without scripts", () => {
    const text = lines(
      "config_version=5",
      "",
      "[application]",
      "",
      'run/main_scene="uid://bas7kye5q42ee"',
      'config/icon="res://icon.svg"',
      "",
      "[autoload]",
      "",
      'GameLoader="*uid://baqawd7ky0hwg"',
      'Globals="*res://globals.gd"',
      "",
      "[debug]",
      "",
      'file_logging/log_path="user://logs/godot.log"',
      "",
      "[input]",
      "",
      'jump={ "events": [ Object(InputEventKey,"resource_local_to_scene":false,"script":null) ] }',
    )
    expect(findings(text)).toEqual([])
  })
})
