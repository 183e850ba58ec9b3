// What a fourth red team got past pckgate-scanner/6 in resources, redirects and settings, in packs built
// with the test's pack writer where the engine cannot show it here (a Godot 4 binary scene, the inline
// external-resource encoding no exporter writes, a theme Godot 3.2.3 loads before GDScript exists), and
// as property tests of the redirect reader. The engine-run proofs are the attack-rt4-* projects of
// attackCorpus.test.ts (fixtures/attackProjects6.ts).
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { extensionListFindings, projectSettingsFindings } from "../../adapters/scanner/checks/projectSettingsCheck.ts"
import { redirectFindings } from "../../adapters/scanner/checks/redirectCheck.ts"
import { readRedirect } from "../../adapters/scanner/resource/redirect.ts"
import { TextResourceReader } from "../../adapters/scanner/resource/textResource.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { type SceneNode, writeBinaryScene } from "./support/resourceWriter.ts"
import { scanBytes } from "./support/scan.ts"

/** `file pattern` of each pack-hostile-path error of a pack holding `entries`. */
const hostile = async (entries: ReadonlyArray<{ readonly path: string; readonly data: Uint8Array }>): Promise<ReadonlyArray<string>> =>
  (await scanBytes(writePack({ format: 2, entries: [...entries] }))).findings.filter((f) => f.rule === "pack-hostile-path" && f.severity === "error").map((f) => `${f.file} ${f.pattern}`)

const scene = (...nodes: ReadonlyArray<SceneNode>): Uint8Array => writeBinaryScene({ scripts: [], nodes: [{ name: "Root", type: "Node", parent: -1 }, ...nodes] })

describe("binary scenes: what a node makes the engine load", () => {
  it("a placeholder's path is judged like the text reader's instance_placeholder (SceneState::instantiate converts props[n.instance & FLAG_MASK] to a String)", async () => {
    const found = await hostile([
      { path: "res://level.scn", data: scene({ name: "A", type: "", parent: 0, placeholder: "user://lvl.tscn" }, { name: "B", type: "", parent: 0, placeholder: "/home/player/lvl.tscn" }, { name: "C", type: "", parent: 0, placeholder: "res://gone.tscn" }, { name: "D", type: "", parent: 0, placeholder: 5 }) },
    ])
    expect(found).toEqual(["res://level.scn instance_placeholder target", "res://level.scn instance_placeholder target", "res://level.scn instance_placeholder target", "res://level.scn instance_placeholder target"])
    // A placeholder for a scene of the pack is what the editor writes.
    expect(await hostile([{ path: "res://level.scn", data: scene({ name: "A", type: "", parent: 0, placeholder: "res://two.scn" }) }, { path: "res://two.scn", data: scene() }])).toEqual([])
  })

  it("an inline external reference (OBJECT_EXTERNAL_RESOURCE: core/io/resource_format_binary.cpp, parse_variant, `RES res = ResourceLoader::load(path, exttype)` in 3.x and 4.x) is a loaded path", async () => {
    const found = await hostile([
      { path: "res://level.scn", data: scene({ name: "A", type: "Node", parent: 0, inline: { property: "theme", type: "Theme", path: "user://evil.tres" } }, { name: "B", type: "Node", parent: 0, inline: { property: "theme", type: "Theme", path: "res://gone.tres" } }) },
    ])
    expect(found).toEqual(["res://level.scn Resource() target", "res://level.scn Resource() target"])
    expect(await hostile([{ path: "res://level.scn", data: scene({ name: "A", type: "Node", parent: 0, inline: { property: "theme", type: "Theme", path: "res://theme.tres" } }) }, { path: "res://theme.tres", data: utf8('[gd_resource type="Theme" format=2]\n\n[resource]\n') }])).toEqual([])
  })

  it("text scenes: a placeholder given a value that is not a string is converted by the engine, so it is judged too", () => {
    const reader = new TextResourceReader(3)
    reader.feed('[gd_scene format=2]\n\n[node name="R" type="Node"]\n\n[node name="P" parent="." instance_placeholder=NodePath("user://a.tscn")]\n[node name="Q" parent="." instance_placeholder=5]\n')
    expect(reader.finish().loadedPaths.map((l) => [l.path, l.what, l.at.line, l.fromRoot])).toEqual([
      ["user://a.tscn", "instance_placeholder", 5, true],
      [null, "instance_placeholder", 6, true],
    ])
  })
})

describe("redirects read with the engine's VariantParser rules", () => {
  it(".remap: the first assignment decides (ResourceLoader::_path_remap stops at it); quoted keys and values converted to a String are followed", () => {
    const targets = (text: string, grammar: 3 | 4 = 3) => readRedirect(text, ".remap", grammar).targets.map((t) => [t.key, t.path, t.followed])
    expect(targets('[remap]\n\n"path"="user://a.tres"\n')).toEqual([["path", "user://a.tres", true]])
    expect(targets('[remap]\n\npath = NodePath("user://b.tres")\n')).toEqual([["path", "user://b.tres", true]])
    expect(targets('[remap]\n; a comment\npath\t=   &"user://c.tres"\n', 4)).toEqual([["path", "user://c.tres", true]])
    // Godot 3's parser has no `&"…"`: it refuses the file and loads the original path.
    expect(targets('[remap]\npath=&"user://c.tres"\n', 3)).toEqual([])
    // A first assignment that is not `path` ends the reading: the path after it is not loaded.
    expect(targets('[remap]\n\nx=1\npath="user://d.tres"\n')).toEqual([])
    expect(targets('[remap]\n\n"path.s3tc"="user://e.tres"\npath="res://f.tres"\n')).toEqual([["path.s3tc", "user://e.tres", false]])
    expect(targets('[remap]\n\npath=Object(Reference,"x":1)\n')).toEqual([["path", null, true]])
  })

  it(".import: `path` and `path.<feature>` of the [remap] section, in any order with the other keys (ResourceFormatImporter::_get_path_and_type)", () => {
    const targets = (text: string) => readRedirect(text, ".import", 3).targets.map((t) => [t.key, t.path])
    expect(targets('[remap]\n\nimporter="texture"\ntype="StreamTexture"\n"path.s3tc"="user://a.stex"\npath=NodePath("user://b.stex")\n\n[deps]\n\npath="user://not-read"\n')).toEqual([
      ["path.s3tc", "user://a.stex"],
      ["path", "user://b.stex"],
    ])
  })

  it("an .import target the pack lacks is read from the disk; another platform's format under the import folder is what an export leaves out", () => {
    const inPack = (path: string) => path === "res://.import/icon.png-1.s3tc.stex"
    const exported = '[remap]\n\nimporter="texture"\ntype="StreamTexture"\npath.s3tc="res://.import/icon.png-1.s3tc.stex"\npath.etc2="res://.import/icon.png-1.etc2.stex"\n'
    expect(redirectFindings("res://icon.png.import", exported, inPack, 3)).toEqual([])
    const planted = '[remap]\n\ntype="Resource"\npath.s3tc="res://.local/share/godot/app_userdata/G/evil.tres"\npath.etc2="res://.import/icon.png-1.s3tc.stex"\n'
    expect(redirectFindings("res://icon.png.import", planted, inPack, 3).map((f) => f.pattern)).toEqual([".import target"])
    expect(redirectFindings("res://icon.png.import", '[remap]\n\npath="res://.import/gone.stex"\n', inPack, 3).map((f) => f.pattern)).toEqual([".import target"])
  })

  /** The shapes a `path` assignment can take that the engine reads the same. */
  const key = fc.constantFrom("path", '"path"', " path", "path\t")
  const equals = fc.constantFrom("=", " = ", "\t=\t", "=\n")
  /** Values the engine converts to the String `t` (Godot 4 adds StringName literals). */
  const spelled = fc.tuple(fc.constantFrom(3 as const, 4 as const), fc.constantFrom((t: string) => `"${t}"`, (t: string) => `NodePath("${t}")`, (t: string) => `&"${t}"`, (t: string) => `StringName("${t}")`)).filter(([grammar, spell]) => grammar === 4 || !spell("").startsWith("&"))
  const preamble = fc.constantFrom("[remap]\n\n", "", "; exported\n[remap]\n", "[remap]\n; note\n\n")

  it("property: every spelling of a path the engine follows to user:// or an absolute path is a hostile path, in .remap and .import", () => {
    fc.assert(
      fc.property(preamble, key, equals, spelled, fc.constantFrom("user://x.tres", "/tmp/x.tres", "C:/x.tres"), fc.constantFrom(".remap", ".import"), (pre, k, eq, [grammar, value], target, kind) => {
        const text = `${pre}${k}${eq}${value(target)}\n${kind === ".import" ? 'type="Resource"\n' : ""}`
        expect(redirectFindings(`res://a.tres${kind}`, text, () => true, grammar).map((f) => f.rule)).toEqual(["pack-hostile-path"])
      }),
    )
  })

  it("property: the same spellings naming a file of the pack are clean", () => {
    // What exports write: a text resource's binary form behind a .remap, an imported asset's behind a .import (the
    // editor imports no script or scene, so a .import beside one is an error of its own: redirectCheck.ts).
    const written = { ".remap": ["res://a.tres", "res://a.tres.converted.res"], ".import": ["res://a.png", "res://.import/a.png-0123.stex"] } as const
    fc.assert(
      fc.property(preamble, key, equals, spelled, fc.constantFrom(".remap", ".import"), (pre, k, eq, [grammar, value], kind) => {
        const [original, target] = written[kind as keyof typeof written]
        expect(redirectFindings(`${original}${kind}`, `${pre}${k}${eq}${value(target)}\n`, (p) => p === target, grammar)).toEqual([])
      }),
    )
  })

  it("a .import beside a script or a scene is an error whatever it names (the engine's import loader takes every load of it)", () => {
    for (const original of ["res://a.gd", "res://a.gdc", "res://a.tscn", "res://a.tres", "res://a.scn", "res://a.res"]) {
      const text = '[remap]\n\npath="res://b.gd"\ntype="GDScript"\n'
      expect(redirectFindings(`${original}.import`, text, () => true, 3).map((f) => `${f.file} ${f.rule}`), original).toEqual([`${original} pack-hostile-path`])
    }
  })
})

describe("project settings that load a file the pack lacks", () => {
  const settings = (...body: ReadonlyArray<string>): string => ["config_version=4", "", ...body, ""].join("\n")
  const inPack = (path: string) => path === "res://main.tscn" || path === "res://a.gd"

  it("autoloads, the main scene and every path setting the engine loads at start: a res:// path the pack lacks is read from the disk", () => {
    const text = settings(
      "[application]",
      'run/main_scene="res://gone.tscn"',
      'boot_splash/image="res://.local/share/godot/app_userdata/G/splash.png"',
      "[autoload]",
      'A="*res://a.gd"',
      'Evil="*res://.local/share/godot/app_userdata/G/evil.gd"',
      "[gui]",
      'theme/custom="res://.local/share/godot/app_userdata/G/theme.tres"',
      "[rendering]",
      'vrs/texture="res://gone.png"',
      "[xr]",
      'openxr/default_action_map="user://map.tres"',
    )
    expect(projectSettingsFindings(text, "res://project.godot", "res://project.godot", inPack).map((f) => `${f.line} ${f.pattern}`)).toEqual([
      "4 project setting application/run/main_scene",
      "5 project setting application/boot_splash/image",
      "8 project setting autoload/Evil",
      "10 project setting gui/theme/custom",
      "12 project setting rendering/vrs/texture",
      "14 project setting xr/openxr/default_action_map",
    ])
    expect(projectSettingsFindings(settings("[application]", 'run/main_scene="res://main.tscn"', "[autoload]", 'A="*res://a.gd"'), "res://project.godot", "res://project.godot", inPack)).toEqual([])
  })

  it("Godot 4's extension list: every path is native code loaded at start; one the pack lacks comes from the disk", () => {
    const found = extensionListFindings("res://bin/lib.gdextension\n\nres://.local/evil.gdextension\n/opt/x.gdextension\n", "res://.godot/extension_list.cfg", (p) => p === "res://bin/lib.gdextension")
    expect(found.map((f) => `${f.line} ${f.pattern}`)).toEqual(["3 extension_list.cfg target", "4 extension_list.cfg target"])
  })
})
