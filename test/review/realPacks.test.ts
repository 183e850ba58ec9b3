// Reading real packs: a 1.0.0 and a 1.1.0 exported by godot3-server in this run (through the HTTP API), and Godot 4
// corpus packs for binary scenes exported under .godot/exported and built-in scripts (through the adapter).
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { withFileByteSource } from "../../adapters/scanner/fileByteSource.ts"
import { indexPack } from "../../adapters/scanner/packFiles/indexPack.ts"
import { nodeSha256 } from "../../adapters/scanner/packFiles/nodeSha256.ts"
import { readPackFile } from "../../adapters/scanner/packFiles/readPackFile.ts"
import { CountingSource } from "../../adapters/scanner/io/CountingSource.ts"
import { READING_MAIN_1_0, READING_MAIN_1_1 } from "../scanner/fixtures/godotProjects.ts"
import { locateCorpus } from "../scanner/support/corpus.ts"
import { fixturePackPath } from "../setup/godot.ts"
import "../setup/provided.ts"
import { makeTestApp, type TestApp } from "../support/testApp.ts"
import { readingGame, sha256Hex, shipPack } from "./support.ts"

const root = inject("godotFixtures")
const exported = (name: string) => new Uint8Array(readFileSync(fixturePackPath(root, name)))

describe("packs exported by godot3-server: 1.0.0, then 1.1.0 with a changed script and a file write", () => {
  let t: TestApp
  let who: Awaited<ReturnType<typeof readingGame>>
  const get = (path: string) => t.api.call("GET", `/api/admin/games/${who.gameId}/releases/${path}`, { token: who.admin })

  beforeAll(async () => {
    t = await makeTestApp()
    who = await readingGame(t)
    await shipPack(t, who.owner, who.gameId, "1.0.0", exported("reading-1.0.0"))
    expect((await t.api.approveScanned(who.admin, who.gameId, "1.0.0")).status).toBe(200)
    await shipPack(t, who.owner, who.gameId, "1.1.0", exported("reading-1.1.0"))
  })
  afterAll(() => t.dispose())

  test("the file list holds the exported entries with their real hashes; the flagged script counts its finding", async () => {
    const { body, status } = await get("1.0.0/files")
    expect(status).toBe(200)
    const main = body.files.find((f: { path: string }) => f.path === "res://game/main.gd")
    expect(main).toEqual({ path: "res://game/main.gd", sizeBytes: READING_MAIN_1_0.length, kind: "script", sha256: sha256Hex(new TextEncoder().encode(READING_MAIN_1_0)), findingCount: 1 })
    expect(body.files.map((f: { path: string; kind: string }) => `${f.kind} ${f.path}`)).toEqual(expect.arrayContaining([
      "scene res://game/main.tscn", "manifest res://manifest.json", "project res://project.binary",
    ]))
  })

  test("the script reads back with its finding at line 5, and project.binary as project.godot text", async () => {
    const main = await get(`1.0.0/file?path=${encodeURIComponent("res://game/main.gd")}`)
    expect(main.body).toMatchObject({ kind: "script", text: READING_MAIN_1_0, truncated: false })
    expect(main.body.findings.map((f: { line: number; rule: string }) => `${f.line} ${f.rule}`)).toEqual(["5 banned-api"])
    const project = await get(`1.0.0/file?path=${encodeURIComponent("res://project.binary")}`)
    expect(project.body.text).toContain('[application]\n\nconfig/name="Fixture"\nrun/main_scene="res://game/main.tscn"\n')
  })

  test("the diff of 1.1.0 against the active release shows the changed lines and the file-writes capability", async () => {
    const { body } = await get("1.1.0/diff")
    expect(body.against).toBe("1.0.0")
    expect(body.files.map((f: { path: string; change: string }) => `${f.change} ${f.path}`)).toEqual(["modified res://game/main.gd", "modified res://manifest.json"])
    const unified: string = body.files[0].unified
    expect(unified).toContain('-\tprint("round one")\n+\tprint("round two")\n')
    expect(unified).toContain('+\tsave.open("user://save.dat", File.WRITE)\n')
    expect(body.capabilities.added).toEqual(["file-writes"])
    expect(body.findings.carried.map((f: { file: string; line: number }) => `${f.file}:${f.line}`)).toEqual(["res://game/main.gd:5"])
    expect([body.findings.new, body.findings.fixed]).toEqual([[], []])
    expect(READING_MAIN_1_1).toContain("File.WRITE")
  })
})

const corpus = locateCorpus()

describe.runIf(corpus.dir !== null)("Godot 4 corpus packs", () => {
  const withPack = <A>(file: string, use: (source: CountingSource) => Promise<A>) =>
    withFileByteSource(join(corpus.dir ?? "", file), (source) => use(new CountingSource(source)))

  test("binary scenes are listed under the creator's path with their .godot/exported storedPath; built-in scripts as entries", async () => {
    const entries = await withPack("g4.6.2-v3-builtin-labvideojuegos2026.pck", (source) => indexPack(source, nodeSha256))
    const exportedScene = entries.find((e) => e.storedPath?.startsWith("res://.godot/exported/") === true && e.kind === "scene")
    expect(exportedScene?.path).toMatch(/^res:\/\/.*\.tscn$/)
    const builtIn = entries.find((e) => e.embeddedIn !== undefined)
    expect(builtIn).toMatchObject({ kind: "script", path: expect.stringMatching(/^res:\/\/.*\.tscn::GDScript_\w+$/) })
    expect(new Set(entries.map((e) => e.path)).size).toBe(entries.length)
    const text = await withPack("g4.6.2-v3-builtin-labvideojuegos2026.pck", (s) => readPackFile(s, builtIn!.path))
    expect(text).toMatchObject({ kind: "script", truncated: false })
    expect(sha256Hex(new TextEncoder().encode(text!.text!))).toBe(builtIn!.sha256)
    const scene = await withPack("g4.6.2-v3-builtin-labvideojuegos2026.pck", (s) => readPackFile(s, exportedScene!.path))
    expect(scene).toMatchObject({ kind: "scene", text: null, head: expect.stringMatching(/^(52535243|52535243)/) })
  })

  test("Godot 4's project.binary decodes to the project.godot text form (sections, packed arrays, input events)", async () => {
    const project = await withPack("g4.6.2-v3-builtin-labvideojuegos2026.pck", (s) => readPackFile(s, "res://project.binary"))
    expect(project?.text).toContain('[application]\n\nconfig/name="lab-videojuegos-2026"\n')
    expect(project?.text).toContain('config/features=PackedStringArray("4.6", "Forward Plus")\n')
    expect(project?.text).toContain('Object(InputEventKey,"resource_local_to_scene":false,')
    expect(project?.text).not.toContain("not decoded")
  })

  test("viewing one file reads the directory and that entry, not the pack", async () => {
    await withPack("g4.6.2-v3-builtin-labvideojuegos2026.pck", async (source) => {
      await readPackFile(source, "res://project.binary")
      expect(source.bytesRead).toBeLessThan(source.size / 4)
    })
  })
})

describe.runIf(corpus.dir !== null)("every corpus pack", () => {
  test("lists unique, sorted paths, and every listed entry opens; untruncated texts hash to the listed SHA-256", async () => {
    const { readSources } = await import("../scanner/support/corpus.ts")
    let opened = 0
    for (const { file } of readSources(corpus.dir ?? "")) {
      await withFileByteSource(join(corpus.dir ?? "", file), async (raw) => {
        const entries = await indexPack(new CountingSource(raw), nodeSha256).catch(() => [])
        const paths = entries.map((e) => e.path)
        expect(new Set(paths).size, file).toBe(paths.length)
        expect([...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), file).toEqual(paths)
        for (const entry of entries) {
          const content = await readPackFile(new CountingSource(raw), entry.path)
          expect(content, `${file} ${entry.path}`).not.toBeNull()
          expect(content?.kind, `${file} ${entry.path}`).toBe(entry.kind)
          if (content?.text !== null && content?.truncated === false && entry.kind !== "project") {
            expect(sha256Hex(new TextEncoder().encode(content.text)), `${file} ${entry.path}`).toBe(entry.sha256)
          }
          opened++
        }
      })
    }
    expect(opened).toBeGreaterThan(500)
  }, 120_000)
})
