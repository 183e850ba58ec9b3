// Every real pack in the corpus, read in place: directory, checksums, built-in scripts, findings.
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { computeChecksums } from "../../adapters/scanner/checks/checksums.ts"
import { builtInScripts, withPackContents } from "./support/packEntries.ts"
import { locateCorpus, readSources } from "./support/corpus.ts"
import { scanFile } from "./support/scan.ts"

const corpus = locateCorpus()
if (corpus.skipReason !== null) console.warn(`[scanner] ${corpus.skipReason}`)
const dir = corpus.dir ?? ""
const sources = corpus.dir === null ? [] : readSources(corpus.dir)

/** What a reviewer expects from each pack on the multipart path without a submitted manifest. */
const EXPECTED_COUNTS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  "g0.0.0-v0-pckpacker-pckmanager.pck": { "pack-unsupported-format": 1 },
  "g2.1.0-v0-ld40-dontbegreedy.pck": { "pack-unsupported-format": 1 },
  "g3.0.0-v1-gdsdecomp-platformer.pck": { "compiled-script": 5, "manifest-missing": 1 },
  "g3.1.0-v1-roguelikedev2019.pck": { "compiled-script": 9, "manifest-missing": 1 },
  "g3.2.0-v1-fgj2020.pck": { "compiled-script": 15, "manifest-missing": 1 },
  "g3.2.3-v1-pckpacker-patchtool.pck": { "banned-api": 1, "manifest-missing": 1 },
  "g3.2.3-v1-pckpacker-truncated-84b.pck": { "pack-truncated": 1 },
  "g3.3.4-v1-ornztarbil-windows.pck": { "compiled-script": 16, "manifest-missing": 1 },
  "g3.4.4-v1-globescaper.pck": { "compiled-script": 12, "manifest-missing": 1, "native-code": 4 },
  "g3.5.1-v1-builtin-tscn-inteli-grupo1.pck": { "compiled-script": 6, "manifest-missing": 1 },
  // pckgate-scanner/5: its custom user:// folder "EHE" is a warning (a plain folder name of its own).
  // pckgate-scanner/11: res://addons/pixel_art/alphabeta.tres's DynamicFontData.font_path names
  // res://addons/pixel_art/alphbeta.ttf, which the pack lacks (the engine would open it from the disk): an error.
  "g3.5.2-v1-gmtk2023-logicmonkey.pck": { "compiled-script": 25, "manifest-missing": 1, "pack-hostile-path": 2 },
  "g3.6.1-v1-gdsdecomp-platformer.pck": { "compiled-script": 11, "manifest-missing": 1 },
  "g4.0.0-v2-nikkxi-beta.pck": { "manifest-missing": 1 },
  "g4.0.2-v2-acagame.pck": { "manifest-missing": 1 },
  "g4.1.3-v2-frankengamejam2023.pck": { "manifest-missing": 1 },
  "g4.2.2-v2-bingo.pck": { "manifest-missing": 1 },
  "g4.3.0-v2-lowrezjam2024.pck": { "compiled-script": 10, "manifest-missing": 1 },
  "g4.4.0-v2-game2048.pck": { "compiled-script": 2, "manifest-missing": 1 },
  "g4.4.1-v2-949886-games.pck": { "compiled-script": 2, "manifest-missing": 1 },
  "g4.5.0-v2-prerelease-magicalpersona.pck": { "compiled-script": 18, "manifest-missing": 1 },
  "g4.5.0-v3-skylockassault.pck": { "banned-api": 4, "compiled-script": 27, "manifest-missing": 1 },
  "g4.6.1-v3-acagamics-template.pck": { "banned-api": 2, "compiled-script": 104, "manifest-missing": 1 },
  "g4.7.1-v4-oyun-guncelleme-small.pck": { "compiled-script": 7, "manifest-missing": 1 },
  "g4.7.1-v4-oyun-guncelleme-large.pck": { "banned-api": 2, "compiled-script": 30, "manifest-missing": 1 },
  // pckgate-scanner/16: its Metamask plugin's ProjectSettings.set_setting(_base_property + property, …) names a setting at
  // run time (the member's start is not known where calls are open): it may be application/config/name, an error.
  "g4.0.0-v2-builtin-dadbod-beta.pck": { "banned-api": 36, "manifest-missing": 1 },
  "g4.2.1-v2-builtin-basegamegodot.pck": { "banned-api": 4, "manifest-missing": 1 },
  "g4.3.0-v2-builtin-discordactivity.pck": { "compiled-script": 9, "manifest-missing": 1 },
  "g4.6.2-v3-builtin-labvideojuegos2026.pck": { "compiled-script": 29, "manifest-missing": 1 },
  "g4.7.1-v4-gdextension-godotcppci.pck": { "manifest-missing": 1, "native-code": 1 },
}

describe.skipIf(corpus.dir === null)("scanner on the real corpus", () => {
  it("corpus: SOURCES.tsv lists every expected file, and every listed file has an expectation", () => {
    expect(sources.map((s) => s.file).sort()).toEqual(Object.keys(EXPECTED_COUNTS).sort())
  })

  describe.each(sources)("$file", (source) => {
    const path = join(dir, source.file)

    it("reads the directory the engine wrote (format, engine version, entry count)", async () => {
      const report = await scanFile(path)
      expect(report.summary.packFormat).toBe(source.packFormat)
      expect(report.summary.engineVersion).toBe(source.engineVersion)
      expect(report.summary.packBytes).toBe(source.bytes)
      expect(report.summary.entryCount).toBe(source.entries ?? 0)
    })

    it("reports what a reviewer expects, and never fails to read a resource", async () => {
      const report = await scanFile(path)
      expect(report.summary.countsByRule).toEqual(EXPECTED_COUNTS[source.file])
      expect(report.ok).toBe(false)
      expect(report.findings.filter((f) => f.rule === "resource-unreadable")).toEqual([])
    })

    it("reads at most the pack's size once over", async () => {
      const report = await scanFile(path)
      expect(report.summary.bytesRead).toBeLessThanOrEqual(report.summary.packBytes)
    })
  })

  describe("checksums (opt-in)", () => {
    const exporterPacks = sources.filter((s) => s.packFormat >= 1 && s.entries !== null && !s.file.includes("pckpacker"))

    it.each(exporterPacks)("$file: every entry's bytes match the MD5 the exporter recorded", async (source) => {
      const results = await withPackContents(join(dir, source.file), computeChecksums)
      expect(results).toHaveLength(source.entries ?? -1)
      expect(results.filter((r) => r.recorded === null || r.recorded !== r.actual)).toEqual([])
      const report = await scanFile(join(dir, source.file), { path: "multipart" }, true)
      expect(report.summary.countsByRule["pack-checksum-mismatch"]).toBeUndefined()
    })

    it("PCKPacker output records no MD5 (all zero), which is not a mismatch", async () => {
      const results = await withPackContents(join(dir, "g3.2.3-v1-pckpacker-patchtool.pck"), computeChecksums)
      expect(results).toHaveLength(9)
      expect(results.every((r) => r.recorded === null)).toBe(true)
    })
  })

  describe("built-in scripts", () => {
    // SOURCES.tsv gives each script's stored length, which counts the terminating NUL.
    it.each([
      ["g4.0.0-v2-builtin-dadbod-beta.pck", "res://.godot/exported/133200997/export-c222ace229a1f9584b79f7b4a4755c06-QuestionSystem.scn", "GDScript_srrm4", 3032, "extends Node2D"],
      ["g4.2.1-v2-builtin-basegamegodot.pck", "res://.godot/exported/133200997/export-05f07159b9103ee56db041b43bfbcbbb-loader.scn", "GDScript_tjhs5", 2010, "extends Node"],
      ["g4.2.1-v2-builtin-basegamegodot.pck", "res://.godot/exported/133200997/export-35d0c05d0927bd3a1490153e38796b30-default_node.scn", "GDScript_cxn4x", 132, "extends Node"],
      ["g4.3.0-v2-builtin-discordactivity.pck", "res://.godot/exported/133200997/export-7936cb3314e92baa208a95fc6f151298-node_2d.scn", "GDScript_gtu7g", 402, "extends Button"],
      ["g4.6.2-v3-builtin-labvideojuegos2026.pck", "res://.godot/exported/133200997/export-609f762188a68253d349ec58c4f3a8d3-game.scn", "GDScript_mwb40", 262, "extends Node2D"],
    ])("%s: %s holds %s", async (file, stored, id, storedLength, firstLine) => {
      const scripts = await withPackContents(join(dir, file), (contents) => builtInScripts(contents, stored))
      expect(scripts.map((s) => s.subResource)).toEqual([id])
      const source = scripts[0]?.source ?? ""
      expect(new TextEncoder().encode(source).length + 1).toBe(storedLength)
      expect(source.split("\n")[0]).toBe(firstLine)
    })

    it("g3.5.1: the text scene NodeRoad.tscn holds sub-resource 3, and findings in it point at .tscn lines", async () => {
      const path = join(dir, "g3.5.1-v1-builtin-tscn-inteli-grupo1.pck")
      const scripts = await withPackContents(path, (contents) => builtInScripts(contents, "res://game_scene/NodeRoad.tscn"))
      expect(scripts.map((s) => s.subResource)).toEqual(["3"])
      expect(scripts[0]?.source.startsWith("extends Node2D\n")).toBe(true)
    })

    it("scene paths in findings are the ones a creator knows, with the exported file as storedPath", async () => {
      const report = await scanFile(join(dir, "g4.2.1-v2-builtin-basegamegodot.pck"))
      const loadPack = report.findings.find((f) => f.pattern === "ProjectSettings.load_resource_pack")
      expect(loadPack).toEqual({
        file: "res://loader.tscn",
        line: 53,
        column: 14,
        rule: "banned-api",
        pattern: "ProjectSettings.load_resource_pack",
        message: expect.stringContaining("built-in script GDScript_tjhs5, line 53"),
        severity: "error",
        storedPath: "res://.godot/exported/133200997/export-05f07159b9103ee56db041b43bfbcbbb-loader.scn",
        embeddedIn: { resource: "res://loader.tscn", subResource: "GDScript_tjhs5" },
        fingerprint: expect.stringMatching(/^fp_[0-9a-f]{32}$/),
      })
    })
  })

  describe("expected findings by format generation", () => {
    it("4.3+ packs flag every .gdc with the preset key to change, under the creator's .gd path", async () => {
      for (const file of sources.filter((s) => /^g4\.[3-7]/.test(s.file) && !s.file.includes("gdextension"))) {
        const report = await scanFile(join(dir, file.file))
        const compiled = report.findings.filter((f) => f.rule === "compiled-script")
        expect(compiled.length, file.file).toBeGreaterThan(0)
        for (const f of compiled) {
          expect(f.file).toMatch(/\.gd$/)
          expect(f.storedPath).toMatch(/\.gdc$/)
          expect(f.message).toContain("script_export_mode=0")
          expect(f.line).toBeNull()
        }
      }
    })

    it("the GDExtension pack flags the .gdextension file", async () => {
      const report = await scanFile(join(dir, "g4.7.1-v4-gdextension-godotcppci.pck"))
      expect(report.findings.filter((f) => f.rule === "native-code").map((f) => [f.file, f.pattern])).toEqual([["res://gdexample.gdextension", ".gdextension"]])
    })

    it("the 3.4.4 pack flags its GDNative library and scripts", async () => {
      const report = await scanFile(join(dir, "g3.4.4-v1-globescaper.pck"))
      expect(report.findings.filter((f) => f.rule === "native-code").map((f) => f.file)).toEqual([
        "res://bin/gdcell.gdns",
        "res://bin/gdprototype.gdns",
        "res://bin/wfc.gdnlib",
        "res://bin/wfc.gdns",
      ])
    })

    it("the OTA update pack's HTTPRequest nodes are found inside its binary scene", async () => {
      const report = await scanFile(join(dir, "g4.7.1-v4-oyun-guncelleme-large.pck"))
      expect(report.findings.filter((f) => f.rule === "banned-api").map((f) => [f.file, f.line, f.message.split(":")[0]])).toEqual([
        ["res://Guncelleme.tscn", null, 'Node "HTTPPckIstek" is a HTTPRequest'],
        ["res://Guncelleme.tscn", null, 'Node "HTTPVersiyonIstek" is a HTTPRequest'],
      ])
    })

    it("the PCKPacker patch tool's text script is scanned: ProjectSettings.load_resource_pack at its line", async () => {
      const report = await scanFile(join(dir, "g3.2.3-v1-pckpacker-patchtool.pck"))
      expect(report.findings.filter((f) => f.rule === "banned-api").map((f) => `${f.file}:${f.line}:${f.column} ${f.pattern}`)).toEqual([
        "res://Test.gd:5:2 ProjectSettings.load_resource_pack",
      ])
    })

    it("format 0 packs are listed, then reported as unsupported; the 84-byte header is a truncation finding", async () => {
      const v0 = await scanFile(join(dir, "g2.1.0-v0-ld40-dontbegreedy.pck"))
      expect(v0.summary.entryCount).toBe(36)
      expect(v0.findings.map((f) => f.message)).toEqual([expect.stringContaining("unsupported pack format 0")])
      const truncated = await scanFile(join(dir, "g3.2.3-v1-pckpacker-truncated-84b.pck"))
      expect(truncated.findings.map((f) => [f.file, f.rule])).toEqual([["(pack)", "pack-truncated"]])
    })

    it("the largest pack is scanned reading a small fraction of its bytes", async () => {
      const report = await scanFile(join(dir, "g4.6.2-v3-builtin-labvideojuegos2026.pck"))
      expect(report.summary.bytesRead / report.summary.packBytes).toBeLessThan(0.05)
    })
  })
})
