// What a sixth red team got past pckgate-scanner/8 in Godot 4 packs, built with the test's pack writer (no
// Godot 4 engine runs here; the engine source lines that show the behaviour are in the titles), and property
// tests of the BBCode reader against the tag spellings RichTextLabel accepts. The Godot 3 proofs (BBCode and
// bitmap fonts run by godot3-server) are the attack-rt6-* projects of attackCorpus.test.ts (fixtures/attackProjects10.ts).
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { bbcodeLoads } from "../../adapters/scanner/resource/bbcode.ts"
import { bmfontPages } from "../../adapters/scanner/resource/bmfont.ts"
import { readUidCache, uidIdToText, uidTextToId } from "../../adapters/scanner/resource/uidCache.ts"
import { ByteBuilder, utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { writeProjectBinary } from "./support/projectBinaryWriter.ts"
import { writeBinaryScene } from "./support/resourceWriter.ts"
import { scanBytes } from "./support/scan.ts"
import { writeUidCache } from "./support/uidCacheWriter.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const MAIN = utf8('[gd_scene load_steps=2 format=3]\n\n[ext_resource type="Script" path="res://game/main.gd" id="1_m"]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource("1_m")\n')

type Entry = { readonly path: string; readonly data: Uint8Array }

/** A Godot 4 pack holding a game and `entries`; `cache` as the pack's uid cache (null: none). */
const pack4 = (entries: ReadonlyArray<Entry>, cache: ReadonlyArray<readonly [string, string]> | null, settings: ReadonlyArray<readonly [string, string]> = []): Uint8Array =>
  writePack({
    format: 3,
    entries: [
      { path: "res://manifest.json", data: MANIFEST },
      { path: "res://project.binary", data: writeProjectBinary([["application/config/name", "G"], ["application/run/main_scene", "res://game/main.tscn"], ...settings]) },
      { path: "res://game/main.tscn", data: MAIN },
      { path: "res://game/main.gd", data: utf8("extends EngineGame\n") },
      { path: "res://game/helper.gd", data: utf8("extends Node\n") },
      ...(cache === null ? [] : [{ path: "res://.godot/uid_cache.bin", data: writeUidCache(cache) }]),
      ...entries,
    ],
  })

/** `file:line pattern` of each error. */
const errors = async (bytes: Uint8Array): Promise<ReadonlyArray<string>> =>
  (await scanBytes(bytes)).findings.filter((f) => f.severity === "error").map((f) => `${f.file}:${f.line ?? ""} ${f.pattern}`)

const scene = (uid: string, path: string): Uint8Array =>
  utf8(`[gd_scene load_steps=2 format=3]\n\n[ext_resource type="Script" uid="${uid}" path="${path}" id="1_h"]\n\n[node name="Level" type="Node"]\nscript = ExtResource("1_h")\n`)

describe("uid:// resolved through the pack's uid cache (core/io/resource_uid.cpp)", () => {
  it("text_to_id and id_to_text are inverse, in base 34 of a-y then 0-8 (ResourceUID::text_to_id: c - 'a', c - '0' + char_count)", () => {
    fc.assert(fc.property(fc.bigInt(0n, 2n ** 63n - 1n), (id) => uidTextToId(uidIdToText(id)) === id))
    expect(uidTextToId("uid://b")).toBe(1n)
    expect(uidTextToId("uid://0")).toBe(25n)
    expect(uidTextToId("uid://ba")).toBe(34n)
    expect(uidTextToId("uid://A")).toBeNull()
    expect(uidTextToId("res://a")).toBeNull()
  })

  it("the cache is a u32 count, then a u64 id, a u32 length and the path per entry (ResourceUID::load_from_cache); a short read ends it", () => {
    const bytes = writeUidCache([["uid://cabc", "res://a.gd"], ["uid://cdef", "user://b.gd"]])
    expect([...readUidCache(bytes)]).toEqual([[uidTextToId("uid://cabc"), "res://a.gd"], [uidTextToId("uid://cdef"), "user://b.gd"]])
    expect([...readUidCache(bytes.subarray(0, bytes.length - 2))]).toEqual([[uidTextToId("uid://cabc"), "res://a.gd"]])
  })

  it("an autoload by uid:// is the cached path (ProjectSettings::fix_autoload_paths, ResourceUID::ensure_path): outside or absent, an error; a uid the cache lacks or a pack without a cache, an error", async () => {
    const autoload = (target: string) => [["autoload/Evil", `*${target}`]] as const
    expect(await errors(pack4([], [["uid://cevil", "user://evil.gd"]], autoload("uid://cevil")))).toEqual(["res://project.binary:11 project setting autoload/Evil"])
    expect(await errors(pack4([], [["uid://cevil", "res://.local/share/godot/app_userdata/G/evil.gd"]], autoload("uid://cevil")))).toEqual(["res://project.binary:11 project setting autoload/Evil"])
    expect(await errors(pack4([], [["uid://cother", "res://game/helper.gd"]], autoload("uid://cevil")))).toEqual(["res://project.binary:11 project setting autoload/Evil"])
    // main.cpp loads the cache from res://.godot/uid_cache.bin: without it in the pack, from the disk.
    const [none] = (await scanBytes(pack4([], null, autoload("uid://cevil")))).findings.filter((f) => f.severity === "error")
    expect(none?.message).toContain("has no res://.godot/uid_cache.bin")
    expect(await errors(pack4([], [["uid://chelp", "res://game/helper.gd"]], autoload("uid://chelp")))).toEqual([])
  })

  it("a text [ext_resource] with a uid loads the cached path, not the path= decoy (ResourceLoaderText::_parse_ext_resource: `if (uid != INVALID_ID && ResourceUID::has_id(uid)) path = get_id_path(uid)`)", async () => {
    const level = (uid: string, path: string) => ({ path: "res://game/level.tscn", data: scene(uid, path) })
    expect(await errors(pack4([level("uid://cevil", "res://game/helper.gd")], [["uid://cevil", "user://evil.gd"]]))).toEqual(["res://game/level.tscn:3 [ext_resource] target"])
    expect(await errors(pack4([level("uid://cevil", "res://game/helper.gd")], [["uid://cevil", "/tmp/evil.gd"]]))).toEqual(["res://game/level.tscn:3 [ext_resource] target"])
    // A uid the cache lacks: the written path is loaded (judged as any path).
    expect(await errors(pack4([level("uid://cgone", "res://game/helper.gd")], [["uid://cother", "res://game/main.gd"]]))).toEqual([])
    expect(await errors(pack4([level("uid://cgone", "res://game/gone.gd")], [["uid://cother", "res://game/main.gd"]]))).toEqual(["res://game/level.tscn:3 [ext_resource] target"])
    // No cache in the pack: the engine reads one from the disk, which can send the id anywhere.
    expect(await errors(pack4([level("uid://cevil", "res://game/helper.gd")], null))).toEqual(["res://game/level.tscn:3 [ext_resource] target"])
    expect(await errors(pack4([level("uid://chelp", "res://game/old_name.gd")], [["uid://chelp", "res://game/helper.gd"]]))).toEqual([])
  })

  it("a binary [ext_resource] with a uid loads the cached path (ResourceLoaderBinary::load: `if (external_resources[i].uid != ResourceUID::INVALID_ID && ResourceUID::has_id(…)) path = get_id_path`)", async () => {
    const binary = (uid: string) => ({ path: "res://game/level.scn", data: writeBinaryScene({ scripts: [], nodes: [{ name: "L", type: "Node", parent: -1, script: { external: "res://game/helper.gd" } }], externalUids: { "res://game/helper.gd": uidTextToId(uid) ?? 0n } }) })
    expect(await errors(pack4([binary("uid://cevil")], [["uid://cevil", "user://evil.gd"]]))).toEqual(["res://game/level.scn: [ext_resource] target"])
    expect(await errors(pack4([binary("uid://chelp")], [["uid://chelp", "res://game/helper.gd"]]))).toEqual([])
  })

  it("load() and preload of a uid:// string load the cached path (ResourceLoader::_load → ResourceUID::ensure_path)", async () => {
    const code = (body: string) => ({ path: "res://game/code.gd", data: utf8(`extends Node\n\nfunc _ready():\n\t${body}\n`) })
    const cache: ReadonlyArray<readonly [string, string]> = [["uid://cevil", "user://evil.tres"], ["uid://chelp", "res://game/helper.gd"]]
    expect(await errors(pack4([code('print(load("uid://cevil"))')], cache))).toEqual(["res://game/code.gd:4 load / ResourceLoader.load / set_script / dict2inst from outside the pack"])
    expect(await errors(pack4([code('print(load("uid://cgone"))')], cache))).toEqual(["res://game/code.gd:4 load / ResourceLoader.load / set_script / dict2inst from outside the pack"])
    expect(await errors(pack4([code('print(load("uid://chelp"), preload("uid://chelp"))')], cache))).toEqual([])
  })
})

describe("registered global classes whose script the pack lacks", () => {
  const CLASS_CACHE = (path: string) => utf8(`list=[{\n"base": &"Node",\n"class": &"Helper",\n"icon": "",\n"language": &"GDScript",\n"path": "${path}"\n}]\n`)
  const user = (uses: boolean) => ({ path: "res://game/spawner.gd", data: utf8(`extends Node\n\nfunc _ready():\n\t${uses ? "add_child(Helper.new())" : "pass"}\n`) })

  it("Godot 4's class cache: a class a pack script names is loaded from its path (GDScriptParser resolves the name with ScriptServer::get_global_class_path), so a path the pack lacks is an error there", async () => {
    const cacheEntry = (path: string) => ({ path: "res://.godot/global_script_class_cache.cfg", data: CLASS_CACHE(path) })
    // At the script's first use, and at the registration (globalClassCheck.ts).
    expect(await errors(pack4([cacheEntry("res://game/gone.gd"), user(true)], []))).toEqual(["res://.godot/global_script_class_cache.cfg:6 project setting list", "res://game/spawner.gd:4 global class target"])
    // By uid:// that resolves to a file the pack lacks, likewise.
    expect(await errors(pack4([cacheEntry("uid://cgone"), user(true)], [["uid://cgone", "res://game/gone.gd"]]))).toEqual(["res://.godot/global_script_class_cache.cfg:6 project setting list", "res://game/spawner.gd:4 global class target"])
    // Named by no script: never loaded (docs/scanner.md, pack-hostile-path).
    expect(await errors(pack4([cacheEntry("res://game/gone.gd"), user(false)], []))).toEqual([])
    expect(await errors(pack4([cacheEntry("res://game/helper.gd"), user(true)], []))).toEqual([])
  })

  it("Godot 3's _global_script_classes: the same rule", async () => {
    const settings = (path: string) => `config_version=4\n\n_global_script_classes=[ {\n"base": "Node",\n"class": "Helper",\n"language": "GDScript",\n"path": "${path}"\n} ]\n\n[application]\n\nconfig/name="G"\nrun/main_scene="res://game/main.tscn"\n`
    const pack3 = (path: string, uses: boolean) =>
      writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://project.godot", data: utf8(settings(path)) }, { path: "res://game/main.tscn", data: utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n') }, { path: "res://game/main.gd", data: utf8("extends EngineGame\n") }, user(uses)] })
    expect(await errors(pack3("res://game/gone.gd", true))).toEqual(["res://game/spawner.gd:4 global class target", "res://project.godot:7 project setting _global_script_classes"])
    expect(await errors(pack3("res://game/gone.gd", false))).toEqual([])
    expect(await errors(pack3("user://helper.gd", false))).toEqual(["res://project.godot:7 project setting _global_script_classes"])
  })
})

/** Paths outside the pack, and paths of files of the pack (BBCode_PACK). */
const OUTSIDE = fc.constantFrom("user://skin.tres", "/tmp/skin.tres", "C:/skin.tres", "res://.local/share/godot/app_userdata/G/skin.tres", "res://gone.tres")
const INSIDE = fc.constantFrom("res://icon.png", "res://ui/font.tres")
/** Text around a tag that holds no `[` (the engine ends an image's path at the next `[`). */
const PLAIN = fc.string({ maxLength: 12 }).map((s) => s.replaceAll("[", "(").replaceAll("]", ")"))

/** A tag spelling of each grammar that loads `path`, as the parser of that engine reads it (scene/gui/rich_text_label.cpp). */
const tagOf = (grammar: 3 | 4) =>
  fc.constantFrom(
    ...[
      (p: string) => `[img]${p}[/img]`,
      (p: string) => `[img=32x16]${p}[/img]`,
      (p: string) => `[img=32]${p}[/img]`,
      (p: string) => `[font=${p}]x[/font]`,
      ...(grammar === 4 ? [(p: string) => `[img width=32 height=16]${p}[/img]`, (p: string) => `[img=center]${p}[/img]`, (p: string) => `[font name=${p} size=12]x[/font]`, (p: string) => `[dropcap font=${p}]A[/dropcap]`] : []),
    ],
  )

/** A pack whose text scene has a RichTextLabel showing `bbcode` (Godot 3 or 4 writing). */
const labelPack = (grammar: 3 | 4, bbcode: string): Uint8Array => {
  const text = `[gd_scene format=${grammar === 3 ? 2 : 3}]\n\n[node name="Credits" type="RichTextLabel"]\nbbcode_enabled = true\n${grammar === 3 ? "bbcode_text" : "text"} = "${bbcode.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"\n`
  const files: ReadonlyArray<Entry> = [
    { path: "res://manifest.json", data: MANIFEST },
    { path: "res://credits.tscn", data: utf8(text) },
    { path: "res://icon.png", data: utf8("png") },
    { path: "res://ui/font.tres", data: utf8('[gd_resource type="DynamicFont" format=2]\n\n[resource]\n') },
  ]
  return writePack({ format: grammar === 3 ? 1 : 2, entries: [...files] })
}

const bbcodeErrors = async (grammar: 3 | 4, bbcode: string): Promise<ReadonlyArray<string>> =>
  (await scanBytes(labelPack(grammar, bbcode))).findings.filter((f) => f.severity === "error" && f.file === "res://credits.tscn").map((f) => f.pattern)

describe("BBCode tags that load resources, as RichTextLabel parses them", () => {
  for (const grammar of [3, 4] as const) {
    it(`Godot ${grammar}: every loading tag spelling with a path outside the pack is an error; with a path of the pack, none`, async () => {
      await fc.assert(
        fc.asyncProperty(tagOf(grammar), OUTSIDE, PLAIN, PLAIN, async (tag, path, before, after) => {
          expect((await bbcodeErrors(grammar, `${before}${tag(path)}${after}`)).length).toBeGreaterThan(0)
        }),
        { numRuns: 40 },
      )
      await fc.assert(
        fc.asyncProperty(tagOf(grammar), INSIDE, PLAIN, PLAIN, async (tag, path, before, after) => {
          expect(await bbcodeErrors(grammar, `${before}${tag(path)}${after}`)).toEqual([])
        }),
        { numRuns: 40 },
      )
    })
  }

  it("tags are compared as written: no case folding, no spaces before the name (`tag == \"img\"`, `tag.begins_with(\"font=\")`), so those load nothing", () => {
    for (const text of ["[IMG]user://a.tres[/IMG]", "[ img]user://a.tres[/img]", "[Font=user://a.tres]", "[font =user://a.tres]"]) {
      expect(bbcodeLoads(text, 3)).toEqual([])
      expect(bbcodeLoads(text, 4)).toEqual([])
    }
    // 3.x takes `img` or `img=` only; 4.x any tag beginning with img.
    expect(bbcodeLoads("[img ]user://a.tres[/img]", 3)).toEqual([])
    expect(bbcodeLoads("[img ]user://a.tres[/img]", 4).map((l) => l.path)).toEqual(["user://a.tres"])
  })

  it("every `[` starts a tag (an unknown one is text, `pos = brk_pos + 1`), and an image's path runs to the next `[`", () => {
    expect(bbcodeLoads("[[img]user://a.tres", 3).map((l) => l.path)).toEqual(["user://a.tres"])
    expect(bbcodeLoads("[img]user://a.tres]x[/img]", 3).map((l) => l.path)).toEqual(["user://a.tres]x"])
    expect(bbcodeLoads("[img][/img][font=]", 3)).toEqual([])
  })

  it("a script's constant BBCode is judged; BBCode built around a translation is judged on its constant parts; BBCode built at run time is a warning", async () => {
    const code = (body: string) => ({ path: "res://game/code.gd", data: utf8(`extends RichTextLabel\n\nfunc _ready():\n\t${body}\n`) })
    const findings = async (body: string) => (await scanBytes(pack4([code(body), { path: "res://icon.png", data: utf8("png") }], []))).findings.filter((f) => f.file === "res://game/code.gd").map((f) => `${f.line} ${f.severity}`)
    expect(await findings('append_text("[img]user://a.tres[/img]")')).toEqual(["4 error"])
    expect(await findings('text = "Hi [font=user://f.tres]x"')).toEqual(["4 error"])
    expect(await findings('parse_bbcode("[img]res://icon.png[/img] %s" % tr("BYE"))')).toEqual([])
    expect(await findings('parse_bbcode("[img]%s[/img]" % tr("BYE"))')).toEqual(["4 warning"])
    expect(await findings("append_text(OS.get_cmdline_args()[0])")).toContainEqual("4 error")
  })
})

describe("BMFont pages (BitmapFont::create_from_fnt of 3.x; FontFile::load_bitmap_font of 4.x reads the binary form too)", () => {
  it("the text form's `page … file=` values, quoted or not, with their lines", () => {
    expect(bmfontPages(utf8('info face="A"\r\npage id=0 file="a b.png"\npage id=1 file=c.png\n'), 3)).toEqual([
      { file: "a b.png", line: 2 },
      { file: "c.png", line: 3 },
    ])
  })

  it("the binary form's page block (type 2: names ending in a zero)", () => {
    const names = utf8("skin.tres\u0000two.png\u0000")
    const bytes = new ByteBuilder().ascii("BMF").u8(3).u8(1).u32(2).u8(0).u8(0).u8(2).u32(names.length).bytes(names).build()
    expect(bmfontPages(bytes, 3)).toEqual([
      { file: "skin.tres", line: null },
      { file: "two.png", line: null },
    ])
  })
})
