// Reading real packs: a 1.0.0 and a 1.1.0 exported by godot3-server in this run (through the HTTP API), and Godot 4
// corpus packs for binary scenes exported under .godot/exported and built-in scripts (through the adapter).
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { bytesSource } from "../../adapters/scanner/io/RandomAccess.ts"
import { openPack } from "../../adapters/scanner/pack/openPack.ts"
import type { ObjectStorage } from "../../ports/ObjectStorage.ts"
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
const G4_PACK = "g4.6.2-v3-builtin-labvideojuegos2026.pck"

/** Counts the bytes that come out of the object store through the ObjectStorage port, however they are read. */
const countingStorage = () => {
  const counted = { bytes: 0 }
  const wrap = (storage: ObjectStorage["Service"]): ObjectStorage["Service"] => ({
    ...storage,
    readRange: (key, offset, length) => Effect.tap(storage.readRange(key, offset, length), (bytes) => Effect.sync(() => (counted.bytes += bytes.length))),
    read: (key) =>
      Effect.map(storage.read(key), (stream) =>
        stream.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
          transform: (chunk, controller) => {
            counted.bytes += chunk.length
            controller.enqueue(chunk)
          },
        }))),
    digest: (key) => Effect.tap(storage.digest(key), (digest) => Effect.sync(() => (counted.bytes += Option.getOrNull(digest)?.sizeBytes ?? 0))),
  })
  return { counted, wrap }
}

describe.runIf(corpus.dir !== null)("a Godot 4 corpus pack uploaded through the API and read over HTTP", () => {
  let t: TestApp
  let who: Awaited<ReturnType<typeof readingGame>>
  const storage = countingStorage()
  const bytes = () => new Uint8Array(readFileSync(join(corpus.dir ?? "", G4_PACK)))
  const get = (path: string) => t.api.call("GET", `/api/admin/games/${who.gameId}/releases/1.0.0/${path}`, { token: who.admin })
  const file = (path: string) => get(`file?path=${encodeURIComponent(path)}`)

  beforeAll(async () => {
    t = await makeTestApp({ wrapStorage: storage.wrap })
    who = await readingGame(t)
    await shipPack(t, who.owner, who.gameId, "1.0.0", bytes())
  })
  afterAll(() => t.dispose())

  test("/files lists binary scenes by the creator's path with their .godot/exported storedPath, and built-in scripts as <scene>::<id> with embeddedIn", async () => {
    const { status, body } = await get("files")
    expect(status).toBe(200)
    const files: Array<{ path: string; storedPath?: string; embeddedIn?: string; kind: string }> = body.files
    const scene = files.find((f) => f.kind === "scene" && f.storedPath?.startsWith("res://.godot/exported/") === true)
    expect(scene?.path).toMatch(/^res:\/\/.*\.tscn$/)
    const builtIns = files.filter((f) => f.embeddedIn !== undefined)
    expect(builtIns.length).toBeGreaterThan(0)
    for (const builtIn of builtIns) {
      expect(builtIn).toMatchObject({ kind: "script", path: `${builtIn.embeddedIn}::${builtIn.path.slice(builtIn.embeddedIn!.length + 2)}` })
      expect(builtIn.path).toMatch(/^res:\/\/.*\.tscn::GDScript_\w+$/)
      expect(files.some((f) => f.path === builtIn.embeddedIn)).toBe(true)
    }
    const script = await file(builtIns[0]!.path)
    expect(script.status).toBe(200)
    expect(script.body).toMatchObject({ path: builtIns[0]!.path, kind: "script", truncated: false, text: expect.stringMatching(/\S/) })
  })

  test("/file of project.binary answers the project.godot text a creator knows", async () => {
    const project = await file("res://project.binary")
    expect(project.status).toBe(200)
    expect(project.body).toMatchObject({ kind: "project", truncated: false })
    expect(project.body.text).toContain('[application]\n\nconfig/name="lab-videojuegos-2026"\n')
    expect(project.body.text).toContain('config/features=PackedStringArray("4.6", "Forward Plus")\n')
  })

  test("viewing one file reads at most the pack's first 4 KiB, its directory and that entry through the ObjectStorage port", async () => {
    const pack = bytes()
    const opened = await openPack(bytesSource(pack))
    if (opened._tag !== "Readable") throw new Error(`${G4_PACK} does not open`)
    const { header } = opened
    // The directory ends where the first entry after it starts (formats 1 and 2), or with the file (format 3 writes it last).
    const after = opened.entries.map((e) => e.dataOffset).filter((offset) => offset >= header.directoryStart)
    const directoryEnd = after.length === 0 ? pack.length : Math.min(...after)
    // Finding the pack reads the file's first 4 KiB (a standalone pack, or one inside an executable), which holds the header.
    const located = Math.max(4096, header.headerBytes) + (directoryEnd - header.directoryStart)
    for (const path of ["res://project.binary", "res://icon.svg"]) {
      const entry = opened.entries.find((e) => e.path === path)
      expect(entry, path).toBeDefined()
      storage.counted.bytes = 0
      const reply = await file(path)
      expect(reply.status, path).toBe(200)
      expect(storage.counted.bytes, `${path}: ${storage.counted.bytes} bytes read of ${pack.length}`).toBeGreaterThan(entry!.size)
      expect(storage.counted.bytes, `${path}: ${storage.counted.bytes} bytes read of ${pack.length}`).toBeLessThanOrEqual(located + entry!.size)
    }
  })
})

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
