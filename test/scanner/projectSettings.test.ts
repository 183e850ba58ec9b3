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
      // A remap of a script (each of its three paths), and its target outside the pack.
      ...Array(4).fill("15 pack-hostile-path project setting locale/translation_remaps"),
      "17 pack-hostile-path project setting locale/translations",
      // A remap of scripts (each of its four paths), and its target outside the pack.
      ...Array(5).fill("21 pack-hostile-path project setting path_remap/remapped_paths"),
    ])
  })

  it("per-locale translations (locale/translations_<lang>, 4.x internationalization/locale/translations_<locale>, feature overrides): outside the pack or missing from it", () => {
    const text = lines(
      "[locale]", // 1
      "", // 2
      'translations_en=PoolStringArray( "res://.local/share/godot/app_userdata/Attack/strings.tres" )', // 3
      'translations_fr=PoolStringArray( "res://lang/fr.translation" )', // 4
      'translations_pt_BR.mobile=PoolStringArray( "user://pt.tres" )', // 5
      "", // 6
      "[internationalization]", // 7
      "", // 8
      'locale/translations_de=PackedStringArray("/tmp/de.translation")', // 9
      'locale/translations_pot_files=PackedStringArray("res://scripts/not_exported.gd")', // 10
    )
    const inPack = (path: string): boolean => path === "res://lang/fr.translation"
    const found = projectSettingsFindings(text, "res://project.binary", "res://project.binary", inPack).map((f) => `${f.line} ${f.rule} ${f.pattern}`)
    expect(found).toEqual([
      "3 pack-hostile-path project setting locale/translations_en",
      "5 pack-hostile-path project setting locale/translations_pt_BR.mobile",
      "9 pack-hostile-path project setting internationalization/locale/translations_de",
    ])
  })

  it("translation remaps of scripts and scenes inside the pack (a seventy-sixth red team's): each path an error; localised media are not", () => {
    const text = lines(
      "[locale]", // 1
      "", // 2
      "translation_remaps={", // 3
      '"res://attack/towers.tscn": PoolStringArray( "res://attack/evil_towers.tscn:en" ),', // 4
      '"res://attack/good.gd": PoolStringArray( "res://attack/evil.gd:en", "res://attack/evil.gd:fr" ),', // 5
      '"res://art/title.png": PoolStringArray( "res://art/title_fr.png:fr" ),', // 6
      '"res://fonts/main.tres": PoolStringArray( "res://fonts/main_ja.tres:ja" )', // 7
      "}", // 8
    )
    const found = projectSettingsFindings(text, "res://project.binary", "res://project.binary", () => true).map((f) => `${f.line} ${f.rule} ${JSON.stringify(f.message).match(/remaps \\"([^\\]+)\\"/)?.[1] ?? ""}`)
    expect(found).toEqual([
      "4 pack-hostile-path res://attack/towers.tscn",
      "4 pack-hostile-path res://attack/evil_towers.tscn",
      "5 pack-hostile-path res://attack/good.gd",
      "5 pack-hostile-path res://attack/evil.gd",
      "5 pack-hostile-path res://attack/evil.gd",
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

describe("project settings that move where the game reads and writes", () => {
  const withSeverity = (text: string): ReadonlyArray<string> =>
    projectSettingsFindings(text, "res://project.binary", "res://project.binary").map((f) => `${f.line} ${f.severity} ${f.pattern}`)

  it("a settings override file is an error wherever it is (a game can write it to user:// for the next start)", () => {
    expect(withSeverity(lines("[application]", 'config/project_settings_override="user://override.cfg"', 'config/project_settings_override.Windows="res://o.cfg"'))).toEqual([
      "2 error project setting application/config/project_settings_override",
      "3 error project setting application/config/project_settings_override",
    ])
    expect(withSeverity(lines("[application]", 'config/project_settings_override=""'))).toEqual([])
  })

  it("a custom user:// folder: nested, empty or another program's folder is an error; a plain name of its own a warning", () => {
    const custom = (name: string | null, app = "My Game") =>
      withSeverity(lines("[application]", `config/name="${app}"`, "config/use_custom_user_dir=true", ...(name === null ? [] : [`config/custom_user_dir_name="${name}"`])))
    expect(custom("godot/app_userdata/Victim")).toEqual(["4 error project setting application/config/custom_user_dir_name"])
    expect(custom("Microsoft")).toEqual(["4 error project setting application/config/custom_user_dir_name"])
    expect(custom("..\\\\..\\\\Startup")).toEqual(["4 error project setting application/config/custom_user_dir_name"])
    expect(custom("Summer Studio")).toEqual(["4 warning project setting application/config/custom_user_dir_name"])
    // No name: the project's name (folders made flat), which may itself be another program's.
    expect(custom(null)).toEqual(["3 warning project setting application/config/custom_user_dir_name"])
    expect(custom("", "Microsoft")).toEqual(["4 error project setting application/config/custom_user_dir_name"])
    expect(withSeverity(lines("[application]", "config/use_custom_user_dir=false", 'config/custom_user_dir_name="Microsoft"'))).toEqual([])
  })

  it("application/config/name as OS::get_safe_dir_name makes it a folder: missing, empty, `.`, `..` or only dots and spaces is an error in every pack (red team 16)", () => {
    const name = (value: string | null, options: { primary?: boolean; grammar?: 3 | 4; more?: ReadonlyArray<string> } = {}): ReadonlyArray<string> =>
      projectSettingsFindings(lines("config_version=4", "", "[application]", "", ...(value === null ? [] : [`config/name=${value}`]), ...(options.more ?? [])), "res://project.binary", "res://project.binary", () => true, undefined, options.grammar ?? 3, [], options.primary ?? true).map(
        (f) => `${f.line} ${f.severity} ${f.pattern}`,
      )
    const at5 = ["5 error project setting application/config/name"]
    expect(name('"Sky Hop"')).toEqual([])
    expect(name('"a/.."')).toEqual([]) // `/` becomes `-`: the folder a-..
    expect(name('"..x"')).toEqual([])
    expect(name("5")).toEqual([]) // not a string: the engine's text of it is "5"
    expect(name('["..", "x"]')).toEqual([]) // an Array's text is "[.., x]"
    expect(name(null)).toEqual(["3 error project setting application/config/name"]) // at [application]
    expect(name(null, { primary: false })).toEqual([]) // project.godot beside a project.binary, override.cfg
    expect(name(null, { grammar: 4 })).toEqual([]) // 4.x: app_userdata/[unnamed project]
    expect(name(null, { more: ['config/name.X11="Attack"'] })).toEqual(["3 error project setting application/config/name"])
    for (const hostile of ['""', '"  "', '"\\t"', '".."', '"."', '" .. "', '"..."', '". ."', 'NodePath("..")', '&".."', '^"."']) expect(name(hostile), hostile).toEqual(at5)
    expect(name('""', { primary: false })).toEqual(at5)
    expect(name('""', { grammar: 4 })).toEqual([])
    expect(name('".."', { grammar: 4 })).toEqual(at5) // renamed twodots by current 4.x builds only
    // A feature override stands in for the name where its feature applies.
    expect(name('"Sky Hop"', { more: ['config/name.X11=".."', 'config/name.Windows="Sky Hop"'] })).toEqual(["6 error project setting application/config/name"])
  })

  it("custom_user_dir_name `.` (or empty with a dotted name) is the data folder itself or above: an error", () => {
    const custom = (dir: string, app = "Sky Hop") =>
      withSeverity(lines("[application]", `config/name="${app}"`, "config/use_custom_user_dir=true", `config/custom_user_dir_name="${dir}"`)).filter((f) => f.includes("custom_user_dir_name"))
    expect(custom(".")).toEqual(["4 error project setting application/config/custom_user_dir_name"])
    expect(custom(" . ")).toEqual(["4 error project setting application/config/custom_user_dir_name"])
    expect(custom("./")).toEqual(["4 error project setting application/config/custom_user_dir_name"])
    expect(custom("..")).toEqual(["4 warning project setting application/config/custom_user_dir_name"]) // `..` becomes `-`
    expect(custom("", "..")).toEqual(["4 error project setting application/config/custom_user_dir_name"])
  })

  it("a log file outside user:// is an error (3.x logging/, 4.x debug/ settings)", () => {
    expect(withSeverity(lines("[logging]", 'file_logging/log_path="/tmp/x.log"', "[debug]", 'file_logging/log_path="res://log.txt"', 'file_logging/log_path.pc="user://logs/godot.log"'))).toEqual([
      "2 error project setting logging/file_logging/log_path",
      "4 error project setting debug/file_logging/log_path",
    ])
  })

  it("settings whose value is a resource the game loads must name a file of the pack, whatever its extension", () => {
    expect(
      findings(
        lines("[gui]", 'theme/custom="user://theme.tres"', 'theme/custom_font="res://font.tres"', "[audio]", 'default_bus_layout="/tmp/layout.x"', "[application]", 'boot_splash/image="uid://abc"', 'config/icon="C:/icon.png"'),
      ),
    ).toEqual(["2 pack-hostile-path project setting gui/theme/custom", "5 pack-hostile-path project setting audio/default_bus_layout", "8 pack-hostile-path project setting application/config/icon"])
  })
})
