// A load whose path the analysis does not pin down is a warning, and an error in a pack that may write a file a load
// reads as code (checks/unpinnedLoads.ts, gdscript/loadableWrites.ts). The Godot 3 attacks and look-alike godot3-server
// ran are attackProjects43.ts; these are the shapes, as packs of the test's writer, and a property over extensions.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')
const SCENE4 = utf8('[gd_scene load_steps=2 format=3]\n[ext_resource type="Script" path="res://game/main.gd" id="1"]\n[node name="Main" type="Node2D"]\nscript = ExtResource("1")\n')

/** The level load whose path is lost in a project setting of the game's own (line 6 of main.gd). */
const LOST_LOAD = ["extends Node", "", "func _ready():", '\tProjectSettings.set_setting("game/level", "res://game/level.tscn")', "\tvar who = str(get_meta('who'))", '\tvar level = load(ProjectSettings.get("game/level"))']

/** The runtime-code-loading findings of a pack of `main.gd` (LOST_LOAD then `writes`) and `others`, as `file:line severity`. */
const loads = async (writes: ReadonlyArray<string>, others: Readonly<Record<string, string>> = {}, format = 1): Promise<ReadonlyArray<string>> => {
  const main = [...LOST_LOAD, ...writes.map((w) => `\t${w}`), ""].join("\n")
  const scripts = Object.entries({ "res://game/main.gd": main, ...others }).map(([path, text]) => ({ path, data: utf8(text) }))
  const report = await scanBytes(writePack({ format, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: format === 1 ? SCENE : SCENE4 }, ...scripts] }))
  return report.findings.filter((f) => f.message.includes("(policy runtime-code-loading)")).map((f) => `${f.file}:${f.line ?? ""} ${f.severity}`)
}

const WARNING = ["res://game/main.gd:6 warning"]
const ERROR = ["res://game/main.gd:6 error"]

describe("a load whose path is not pinned down", () => {
  it("in a pack that writes nothing is a warning", async () => {
    expect(await loads([])).toEqual(WARNING)
  })

  it.each([
    ["a script", ['var f = File.new()', 'f.open("user://level.gd", File.WRITE)']],
    ["a text resource by ResourceSaver", ['ResourceSaver.save("user://level.tres", Resource.new())']],
    ["a redirect beside a texture's path", ['var f = File.new()', 'f.open("user://shot.png.remap", File.WRITE)']],
    ["an import file", ['var f = File.new()', 'f.open("user://a.png.import", File.WRITE)']],
    ["a binary resource under a type's own extension", ['var f = File.new()', 'f.open("user://walk.anim", File.WRITE)']],
    ["a path whose end is not known", ['var f = File.new()', 'f.open("user://" + who, File.WRITE)']],
    ["a name joined under a folder whose end is not known", ['var f = File.new()', 'f.open("user://saves".plus_file(who), File.WRITE)']],
    ["a JSON name with a text part (a NUL in it cuts the path where the engine opens it)", ['var f = File.new()', 'f.open("user://profile_" + who + ".json", File.WRITE)']],
    ["a JSON name with a %s part", ['var f = File.new()', 'f.open("user://%s.json" % who, File.WRITE)']],
    ["a JSON name joined under a folder from a text part", ['var f = File.new()', 'f.open("user://saves".plus_file(who + ".json"), File.WRITE)']],
    ["a JSON name with a control character in it", ['var f = File.new()', 'f.open("user://a.gd\\n.json", File.WRITE)']],
    ["a file opened for reading and writing", ['var f = File.new()', 'f.open("user://level.gd", File.READ_WRITE)']],
    ["a copy onto a script's name", ['var d = Directory.new()', 'd.copy("user://save.json", "user://level.gd")']],
  ])("in a pack that writes %s is an error naming that write", async (_name, writes) => {
    // A redirect written is also the error at its write (loadableWrites.ts writesRedirect): line 6 is the load.
    expect((await loads(writes)).filter((f) => f.startsWith("res://game/main.gd:6 "))).toEqual(ERROR)
  })

  it("a write of a redirect is itself the error, in any case of its extension", async () => {
    for (const name of ["shot.png.remap", "a.png.import", "lvl.tres.REMAP", "x.Import"]) {
      expect(await loads(["var f = File.new()", `f.open("user://${name}", File.WRITE)`]), name).toEqual([...ERROR, "res://game/main.gd:8 error"])
    }
    expect(await loads(["var c = ConfigFile.new()", 'c.set_value("remap", "path", "user://x.tres")', 'c.save("user://game/lvl.tres.remap")'])).toEqual([...ERROR, "res://game/main.gd:9 error"])
    expect(await loads(["var f = File.new()", 'f.open("user://save_%d.remap" % randi(), File.WRITE)'])).toEqual([...ERROR, "res://game/main.gd:8 error"])
    expect(await loads(["var d = Directory.new()", 'd.make_dir_recursive("user://packs.import")'])).toEqual(WARNING)
  })

  it("a path built at run time under res:// is judged the same way (a name with .. climbs out of the game's folder)", async () => {
    const built = async (writes: ReadonlyArray<string>): Promise<ReadonlyArray<string>> => {
      const main = ["extends Node", "", "func _ready():", "\tvar who = str(get_meta('who'))", '\tvar level = load("res://levels/" + who + ".tscn")', ...writes.map((w) => `\t${w}`), ""].join("\n")
      const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(main) }, { path: "res://levels/a.tscn", data: SCENE }] }))
      return report.findings.filter((f) => f.message.includes("(policy runtime-code-loading)")).map((f) => `${f.line ?? ""} ${f.severity}`)
    }
    expect(await built([])).toEqual(["5 warning"])
    expect(await built(['var f = File.new()', 'f.open("user://save_%d.json" % 1, File.WRITE)'])).toEqual(["5 warning"])
    expect(await built(['var f = File.new()', 'f.open("user://lvl.gd", File.WRITE)'])).toEqual(["5 error"])
  })

  it("an element of a constant Array every use only reads, by an index not constant, is one of its items (an eighteenth red team's levels)", async () => {
    const levels = async (extra: ReadonlyArray<string>): Promise<ReadonlyArray<string>> => {
      const main = ["extends Node", "", 'const LEVELS = ["res://levels/a.tscn", "res://levels/b.tscn"]', "", "func _ready():", "\tvar i = randi() % 2", "\tvar level = load(LEVELS[i])", ...extra.map((w) => `\t${w}`), ""].join("\n")
      const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(main) }, { path: "res://levels/a.tscn", data: SCENE }, { path: "res://levels/b.tscn", data: SCENE }] }))
      return report.findings.filter((f) => f.message.includes("(policy runtime-code-loading)")).map((f) => `${f.line ?? ""} ${f.severity}`)
    }
    expect(await levels(['ResourceSaver.save("user://settings.tres", Resource.new())'])).toEqual([])
    // Changed anywhere (an element written, the constant reached by name), it is no longer followed.
    expect(await levels(['LEVELS[0] = "user://lvl.gd"', 'ResourceSaver.save("user://settings.tres", Resource.new())'])).toEqual(["7 error"])
    expect(await levels(["var l = LEVELS", 'l[1] = "user://lvl.gd"', 'ResourceSaver.save("user://settings.tres", Resource.new())'])).toEqual(["7 error"])
    expect(await levels(['get("LEVELS").append("user://lvl.gd")', 'ResourceSaver.save("user://settings.tres", Resource.new())'])).toEqual(["7 error"])
  })

  it("the error names the write, and a write in another script of the pack counts too", async () => {
    const other = ["extends Node", "", "func save():", "\tvar f = File.new()", '\tf.open("user://lvl.gd", File.WRITE)', ""].join("\n")
    expect(await loads([], { "res://game/saver.gd": other })).toEqual(ERROR)
    const report = await scanBytes(
      writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8([...LOST_LOAD, ""].join("\n")) }, { path: "res://game/saver.gd", data: utf8(other) }] }),
    )
    const message = report.findings.find((f) => f.line === 6)?.message ?? ""
    expect(message).toContain('the pack writes files a load can read as code (res://game/saver.gd:5 File.open("user://lvl.gd"))')
  })

  it.each([
    ["JSON saves by slot", ['var f = File.new()', 'f.open("user://save_%d.json" % 1, File.WRITE)', 'f.open("user://save_%03d.json" % randi(), File.WRITE)']],
    ["a JSON profile numbered at run time", ['var f = File.new()', 'f.open("user://profile_" + ("%d" % randi()) + ".json", File.WRITE)']],
    ["a screenshot and a settings file", ['var img = Image.new()', 'img.save_png("user://shot_%d.png" % randi())', 'var c = ConfigFile.new()', 'c.save("user://settings.cfg")']],
    ["a file opened for reading", ['var f = File.new()', 'f.open("user://level.gd", File.READ)']],
    ["a high score in a file without an extension (no loader takes it)", ['var f = File.new()', 'f.open("user://highscore", File.WRITE)', "f.store_32(10)"]],
    ["JSON under folders it makes", ['var d = Directory.new()', 'd.make_dir_recursive(OS.get_user_data_dir() + "/saves")', 'var f = File.new()', 'f.open("user://saves".plus_file("slot_%d.json" % randi()), File.WRITE)', 'var img = Image.new()', 'img.save_png(OS.get_user_data_dir().plus_file("shot.png"))']],
  ])("in a pack that writes only %s stays a warning", async (_name, writes) => {
    expect(await loads(writes)).toEqual(WARNING)
  })

  it("Godot 4: FileAccess writing a script makes it an error, a JSON save does not", async () => {
    const lost = ['\tProjectSettings.set_setting("game/level", "res://game/level.tscn")']
    const g4 = async (write: string): Promise<ReadonlyArray<string>> => {
      const main = ["extends Node", "", "func _ready():", ...lost, "\tvar who = str(get_meta('who'))", '\tvar level = load(ProjectSettings.get_setting("game/level"))', `\t${write}`, ""].join("\n")
      const report = await scanBytes(writePack({ format: 2, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE4 }, { path: "res://game/main.gd", data: utf8(main) }] }))
      return report.findings.filter((f) => f.message.includes("(policy runtime-code-loading)")).map((f) => `${f.file}:${f.line ?? ""} ${f.severity}`)
    }
    expect(await g4('FileAccess.open("user://level.gd", FileAccess.WRITE)')).toEqual(ERROR)
    expect(await g4('FileAccess.open("user://save_%d.json" % 2, FileAccess.WRITE)')).toEqual(WARNING)
  })
})

describe("the extension of a written file decides (property)", () => {
  const INERT = ["json", "cfg", "txt", "csv", "png", "jpg", "wav", "ogg", "ttf", "JSON", "Png"]
  const LOADABLE = ["gd", "gdc", "gde", "tres", "res", "tscn", "scn", "anim", "material", "theme", "remap", "import", "gdns", "gdnlib", "shader", "fnt", "GD", "Tres", "json.remap", "png.import"]
  // Paths whose parts between start and end are numbers: the end is the file's.
  const numbered = fc.constantFrom<(ext: string) => string>(
    (ext) => `"user://save.${ext}"`,
    (ext) => `"user://save_%d.${ext}" % randi()`,
    (ext) => `"user://save_%03d_%x.${ext}" % [randi(), randi()]`,
    (ext) => `"user://slot" + ("%d" % randi()) + ".${ext}"`,
    (ext) => `"user://saves".plus_file("s%d.${ext}" % randi())`,
  )
  // Paths with a text part: a NUL in it cuts the path short, so any end counts.
  const texted = fc.constantFrom<(ext: string) => string>(
    (ext) => `"user://save_" + who + ".${ext}"`,
    (ext) => `"user://" + who + "_" + who + ".${ext}"`,
    (ext) => `("user://slot%s" % who) + ".${ext}"`,
    (ext) => `"user://%s_%d.${ext}" % [who, 1]`,
  )
  it("an inert extension keeps the load a warning, any other makes it an error, however a numbered path is built", async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.constantFrom(...INERT), fc.constantFrom(...LOADABLE), numbered, async (inert, good, bad, build) => {
        const found = await loads(["var f = File.new()", `f.open(${build(inert ? good : bad)}, File.WRITE)`])
        expect(found.filter((f) => f.startsWith("res://game/main.gd:6 "))).toEqual(inert ? WARNING : ERROR)
      }),
      { numRuns: 60 },
    )
  })
  it("a path with a text part counts whatever its end", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...INERT, ...LOADABLE), texted, async (ext, build) => {
        // (A redirect's end is also an error at the write: docs/scanner.md#redirect-writes.)
        const found = await loads(["var f = File.new()", `f.open(${build(ext)}, File.WRITE)`])
        expect(found.filter((f) => f.startsWith("res://game/main.gd:6 "))).toEqual(ERROR)
        expect(found.length).toBe(/\.?(remap|import)$/.test(ext) ? 2 : 1)
      }),
      { numRuns: 40 },
    )
  })
})
