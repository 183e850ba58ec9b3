// Global classes registered at the platform's reserved folders (red team 14's false positive; fixtures/attackProjects29.ts
// holds the Godot 3 projects godot3-server exports and runs). The editor registers every class_name of the project in
// project.godot's `_global_script_classes` (Godot 4: .godot/global_script_class_cache.cfg), the SDK's EngineGame at
// res://sdk/engine_game.gd among them, and the export keeps that list while exclude_filter leaves sdk/* out (service
// spec, "Export requirements"). A registration of a class the policy lists as the platform's (`platformClasses`:
// EngineGame at res://sdk/engine_game.gd), at exactly that path, which the pack lacks, names the platform's file: no
// finding. Everything else keeps its findings: EngineGame registered anywhere else (another case, a `..`, a uid://), a
// listed path the pack holds (its reserved-path finding too), and any other class at a reserved path the pack lacks
// where a script names it (red team 16: the engine reads that path from the disk, which a game can write).
import { describe, expect, it } from "vitest"
import { isPlatformScript } from "../../adapters/scanner/checks/platformScripts.ts"
import { projectSettingsFindings } from "../../adapters/scanner/checks/projectSettingsCheck.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { writeProjectBinary } from "./support/projectBinaryWriter.ts"
import { scanBytes } from "./support/scan.ts"
import { writeUidCache } from "./support/uidCacheWriter.ts"

const PLATFORM = defaultPolicy.platformClasses ?? []
const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const MAIN3 = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')
const MAIN4 = utf8('[gd_scene load_steps=2 format=3]\n\n[ext_resource type="Script" path="res://game/main.gd" id="1_m"]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource("1_m")\n')
/** The game's root script, and a script that names the SDK's helper class NetSync. */
const GAME = [
  { path: "res://game/main.gd", data: utf8("extends EngineGame\n") },
  { path: "res://game/lobby.gd", data: utf8("extends Node\n\nfunc _ready():\n\tadd_child(NetSync.new())\n") },
]
const SDK = { path: "res://sdk/engine_game.gd", data: utf8("extends Node2D\nclass_name EngineGame\n") }

type Entry = { readonly path: string; readonly data: Uint8Array }
type Registration = readonly [name: string, base: string, path: string]

/** `_global_script_classes` as the Godot 3 editor writes it (lines 3 to 3 + 6n of project.godot). */
const settings3 = (classes: ReadonlyArray<Registration>): string =>
  `config_version=4\n\n_global_script_classes=[ ${classes.map(([c, b, p]) => `{\n"base": "${b}",\n"class": "${c}",\n"language": "GDScript",\n"path": "${p}"\n}`).join(", ")} ]\n\n[application]\n\nconfig/name="G"\nrun/main_scene="res://game/main.tscn"\n`

/** The class cache as the Godot 4 editor writes it. */
const cache4 = (classes: ReadonlyArray<Registration>): string =>
  `list=[${classes.map(([c, b, p]) => `{\n"base": &"${b}",\n"class": &"${c}",\n"icon": "",\n"language": &"GDScript",\n"path": "${p}"\n}`).join(", ")}]\n`

const pack3 = (classes: ReadonlyArray<Registration>, more: ReadonlyArray<Entry> = []): Uint8Array =>
  writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://project.godot", data: utf8(settings3(classes)) }, { path: "res://game/main.tscn", data: MAIN3 }, ...GAME, ...more] })

const pack4 = (classes: ReadonlyArray<Registration>, more: ReadonlyArray<Entry> = []): Uint8Array =>
  writePack({
    format: 3,
    entries: [
      { path: "res://manifest.json", data: MANIFEST },
      { path: "res://project.binary", data: writeProjectBinary([["application/config/name", "G"], ["application/run/main_scene", "res://game/main.tscn"]]) },
      { path: "res://.godot/global_script_class_cache.cfg", data: utf8(cache4(classes)) },
      { path: "res://game/main.tscn", data: MAIN4 },
      ...GAME,
      ...more,
    ],
  })

/** `file:line rule pattern` of each error. */
const errors = async (bytes: Uint8Array): Promise<ReadonlyArray<string>> =>
  (await scanBytes(bytes)).findings.filter((f) => f.severity === "error").map((f) => `${f.file}:${f.line ?? ""} ${f.rule} ${f.pattern}`)

const ENGINE_GAME: Registration = ["EngineGame", "Node2D", "res://sdk/engine_game.gd"]
const NET_SYNC: Registration = ["NetSync", "Node", "res://sdk/net/net_sync.gd"]
/** A class of the starter template's core/ the editor registers and no script of the game names. */
const UNNAMED: Registration = ["MatchClock", "Reference", "res://core/match_clock.gd"]

describe("classes registered at the platform's reserved folders", () => {
  it("only a class the policy lists, at exactly its path, that the pack lacks is the platform's", () => {
    const lacks = (): boolean => false
    expect(PLATFORM).toEqual([{ name: "EngineGame", path: "res://sdk/engine_game.gd", hooks: ["_*"] }])
    expect(isPlatformScript("EngineGame", "res://sdk/engine_game.gd", PLATFORM, lacks)).toBe(true)
    const notPlatform: ReadonlyArray<readonly [string | null, string]> = [
      ["NetSync", "res://sdk/net/net_sync.gd"], // another class under sdk/: the engine reads whatever the disk has there
      ["SdkHelper", "res://sdk/helper.gd"],
      ["MatchClock", "res://core/match_clock.gd"],
      ["Helper", "res://sdk/engine_game.gd"], // the SDK's path under another name
      [null, "res://sdk/engine_game.gd"],
      ["EngineGame", "res://SDK/engine_game.gd"], // another file on a case-sensitive disk
      ["EngineGame", "res://sdk/Engine_Game.gd"],
      ["EngineGame", "res://sdk/../game/fake.gd"], // climbs out of the folder (Godot 3 reads it from the disk as written, Godot 4 simplifies it to res://game/fake.gd)
      ["EngineGame", "res://sdk/./engine_game.gd"], // not in simplified form: Godot 3 misses even the platform's own file
      ["EngineGame", "res://sdk//engine_game.gd"],
      ["EngineGame", "res://sdk\\engine_game.gd"],
      ["EngineGame", "res://game/../sdk/engine_game.gd"],
      ["EngineGame", "sdk/engine_game.gd"], // no res://: the editor never writes one, and Godot 3 opens it in the working folder
      ["EngineGame", "uid://cengine"], // resolved through the pack's own uid cache: the pack says what it is
      ["EngineGame", "user://sdk/engine_game.gd"],
      ["EngineGame", "res://game/sdk/engine_game.gd"],
    ]
    for (const [name, path] of notPlatform) expect(isPlatformScript(name, path, PLATFORM, lacks), `${name} ${path}`).toBe(false)
    // A file the pack holds is the pack's (and a reserved-path finding of its own).
    expect(isPlatformScript("EngineGame", "res://sdk/engine_game.gd", PLATFORM, (p) => p === "res://sdk/engine_game.gd")).toBe(false)
    // No platform classes in the policy, none is the platform's.
    expect(isPlatformScript("EngineGame", "res://sdk/engine_game.gd", [], lacks)).toBe(false)
  })

  it("project settings: EngineGame at the SDK's path is no finding; at any other path, or at the SDK's path the pack holds, it is", () => {
    const text = (path: string, path2?: string): string =>
      `_global_script_classes=[ {\n"base": "Node2D",\n"class": "EngineGame",\n"language": "GDScript",\n"path": "${path}"${path2 === undefined ? "" : `,\n"path": "${path2}"`}\n} ]\n`
    const found = (t: string, inPack: (p: string) => boolean = () => false, platform = PLATFORM): ReadonlyArray<string> =>
      projectSettingsFindings(t, "res://project.godot", "res://project.godot", inPack, undefined, 3, platform).map((f) => `${f.line} ${f.rule}`)
    expect(found(text("res://sdk/engine_game.gd"))).toEqual([])
    expect(found(text("res://SDK/Engine_Game.gd"))).toEqual(["3 entry-scene-not-engine-game"])
    expect(found(text("res://sdk/engine_game.gd"), (p) => p === "res://sdk/engine_game.gd")).toEqual(["3 entry-scene-not-engine-game"])
    expect(found(text("res://sdk/engine_game.gd"), () => false, [])).toEqual(["3 entry-scene-not-engine-game"])
    expect(found(text("res://game/fake.gd"))).toEqual(["3 entry-scene-not-engine-game"])
    // A `..` is a hostile path of its own (the settings check), and not the platform's.
    expect(found(text("res://sdk/../game/fake.gd"))).toEqual(["5 pack-hostile-path", "3 entry-scene-not-engine-game"])
    expect(found(text("sdk/engine_game.gd"))).toEqual(["3 entry-scene-not-engine-game"])
    // A path key written twice: the Dictionary keeps the last, and every value is judged.
    expect(found(text("res://game/fake.gd", "res://sdk/engine_game.gd"))).toEqual(["3 entry-scene-not-engine-game"])
    expect(found(text("res://sdk/engine_game.gd", "res://game/fake.gd"))).toEqual(["3 entry-scene-not-engine-game"])
    // Without the policy's classes (the default), nothing is the platform's.
    expect(projectSettingsFindings(text("res://sdk/engine_game.gd"), "res://project.godot", "res://project.godot", () => false).map((f) => f.rule)).toEqual(["entry-scene-not-engine-game"])
  })

  it("Godot 3: the editor's registration of the SDK's classes, sdk/ excluded, is clean", async () => {
    expect(await errors(pack3([ENGINE_GAME, UNNAMED]))).toEqual([])
  })

  it("Godot 3: another class at a reserved path the pack lacks is an error where a script names it (red team 16's sdkreg), and EngineGame in another case is not the SDK's", async () => {
    expect(await errors(pack3([ENGINE_GAME, NET_SYNC]))).toEqual([
      "res://game/lobby.gd:4 pack-hostile-path global class target",
      "res://project.godot:12 pack-hostile-path project setting _global_script_classes",
    ])
    expect(await errors(pack3([["EngineGame", "Node2D", "res://Sdk/engine_game.gd"], UNNAMED]))).toEqual([
      "res://game/main.gd:1 pack-hostile-path global class target",
      "res://project.godot:5 entry-scene-not-engine-game class_name EngineGame",
      "res://project.godot:7 pack-hostile-path project setting _global_script_classes",
    ])
  })

  it("Godot 3: EngineGame at a path outside the reserved folders, climbing out of one, or the pack's own copy stays an error", async () => {
    // The pack's own EngineGame at a path of its own (attack-engine-game-defined, run by godot3-server).
    expect(await errors(pack3([["EngineGame", "Node2D", "res://game/fake.gd"], UNNAMED], [{ path: "res://game/fake.gd", data: utf8("extends Node2D\nclass_name EngineGame\n") }]))).toEqual([
      "res://game/fake.gd:2 entry-scene-not-engine-game class_name EngineGame",
      "res://project.godot:5 entry-scene-not-engine-game class_name EngineGame",
    ])
    // The same path, but the pack lacks it: the engine reads it from the disk.
    expect(await errors(pack3([["EngineGame", "Node2D", "res://game/fake.gd"], UNNAMED]))).toEqual([
      "res://game/main.gd:1 pack-hostile-path global class target",
      "res://project.godot:5 entry-scene-not-engine-game class_name EngineGame",
      "res://project.godot:7 pack-hostile-path project setting _global_script_classes",
    ])
    // A `..` out of sdk/: Godot 3 looks the path up as written and reads it from the disk (an error of the settings
    // check for the `..`, and of the global class check for the load).
    expect(await errors(pack3([["EngineGame", "Node2D", "res://sdk/../.local/share/godot/app_userdata/G/eg.gd"], UNNAMED]))).toEqual([
      "res://game/main.gd:1 pack-hostile-path global class target",
      "res://project.godot:5 entry-scene-not-engine-game class_name EngineGame",
      "res://project.godot:7 pack-hostile-path project setting _global_script_classes",
      "res://project.godot:7 pack-hostile-path project setting _global_script_classes",
    ])
    // The SDK's path, but the pack brings the file: the pack's own EngineGame, in a reserved folder.
    expect(await errors(pack3([ENGINE_GAME, UNNAMED], [SDK]))).toEqual([
      "res://project.godot:5 entry-scene-not-engine-game class_name EngineGame",
      "res://sdk/engine_game.gd: reserved-path sdk/",
      "res://sdk/engine_game.gd:2 entry-scene-not-engine-game class_name EngineGame",
    ])
    // A .remap beside the SDK's path redirects the load into the pack: the pack holds the path.
    expect(await errors(pack3([ENGINE_GAME, UNNAMED], [{ path: "res://sdk/engine_game.gd.remap", data: utf8('[remap]\n\npath="res://game/fake.gd"\n') }, { path: "res://game/fake.gd", data: utf8("extends Node2D\n") }]))).toEqual([
      "res://project.godot:5 entry-scene-not-engine-game class_name EngineGame",
      "res://sdk/engine_game.gd: pack-hostile-path .remap target",
      "res://sdk/engine_game.gd: reserved-path sdk/",
    ])
  })

  it("Godot 3: any other class at a path outside the reserved folders the pack lacks, or climbing out of one, stays an error where a script names it", async () => {
    expect(await errors(pack3([ENGINE_GAME, ["NetSync", "Node", "res://game/net_sync.gd"]]))).toEqual([
      "res://game/lobby.gd:4 pack-hostile-path global class target",
      "res://project.godot:12 pack-hostile-path project setting _global_script_classes",
    ])
    expect(await errors(pack3([ENGINE_GAME, ["NetSync", "Node", "res://sdk/../net_sync.gd"]]))).toEqual([
      "res://game/lobby.gd:4 pack-hostile-path global class target",
      "res://project.godot:12 pack-hostile-path project setting _global_script_classes",
      "res://project.godot:12 pack-hostile-path project setting _global_script_classes",
    ])
    // A loader the engine instances at every start from a path outside the reserved folders.
    expect(await errors(pack3([ENGINE_GAME, ["SaveFormat", "ResourceFormatLoader", "res://.local/share/godot/app_userdata/G/f.gd"]]))).toEqual([
      "res://project.godot:12 pack-hostile-path project setting _global_script_classes",
    ])
  })

  it("Godot 4's class cache: the same rules (core/object/script_language.cpp, ScriptServer::init_languages reads the cache's list)", async () => {
    expect(await errors(pack4([ENGINE_GAME, UNNAMED]))).toEqual([])
    expect(await errors(pack4([["EngineGame", "Node2D", "res://game/fake.gd"], UNNAMED], [{ path: "res://game/fake.gd", data: utf8("extends Node2D\nclass_name EngineGame\n") }]))).toEqual([
      "res://.godot/global_script_class_cache.cfg:3 entry-scene-not-engine-game class_name EngineGame",
      "res://game/fake.gd:2 entry-scene-not-engine-game class_name EngineGame",
    ])
    // Godot 4 simplifies `res://sdk/../game/fake.gd` to res://game/fake.gd: the pack's own file (the `..` an error of its own).
    expect(await errors(pack4([["EngineGame", "Node2D", "res://sdk/../game/fake.gd"], UNNAMED], [{ path: "res://game/fake.gd", data: utf8("extends Node2D\n") }]))).toEqual([
      "res://.godot/global_script_class_cache.cfg:3 entry-scene-not-engine-game class_name EngineGame",
      "res://.godot/global_script_class_cache.cfg:6 pack-hostile-path project setting list",
    ])
    expect(await errors(pack4([ENGINE_GAME, UNNAMED], [SDK]))).toEqual([
      "res://.godot/global_script_class_cache.cfg:3 entry-scene-not-engine-game class_name EngineGame",
      "res://sdk/engine_game.gd: reserved-path sdk/",
      "res://sdk/engine_game.gd:2 entry-scene-not-engine-game class_name EngineGame",
    ])
    // A uid:// the pack's own uid cache resolves to the SDK's path: the pack says what the id is, not the platform.
    const uid = [{ path: "res://.godot/uid_cache.bin", data: writeUidCache([["uid://cengine", "res://sdk/engine_game.gd"]]) }]
    expect(await errors(pack4([["EngineGame", "Node2D", "uid://cengine"], UNNAMED], uid))).toEqual([
      "res://.godot/global_script_class_cache.cfg:3 entry-scene-not-engine-game class_name EngineGame",
      "res://.godot/global_script_class_cache.cfg:6 pack-hostile-path project setting list",
      "res://game/main.gd:1 pack-hostile-path global class target",
    ])
    expect(await errors(pack4([ENGINE_GAME, ["NetSync", "Node", "res://game/gone.gd"]]))).toEqual([
      "res://.godot/global_script_class_cache.cfg:12 pack-hostile-path project setting list",
      "res://game/lobby.gd:4 pack-hostile-path global class target",
    ])
  })
})
