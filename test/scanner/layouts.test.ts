// Layouts no real sample has, built from the format reference's byte tables: embedded packs,
// encryption, patch entries, sparse bundles, unknown formats, and hostile directories.
import { describe, expect, it } from "vitest"
import { ByteBuilder, concat, utf8 } from "./support/bytes.ts"
import {
  elfPrefix,
  FILE_DELTA,
  FILE_ENCRYPTED,
  FILE_REMOVAL,
  PACK_DIR_ENCRYPTED,
  PACK_REL_FILEBASE,
  PACK_SPARSE_BUNDLE,
  pePrefix,
  trailer,
  type WriterEntry,
  writePack,
} from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = { id: "g", name: "G", version: "1.0", engine_sdk: "1.0", entry_scene: "res://main.tscn", min_players: 1, max_players: 2 }
const mainScene = ['[gd_scene load_steps=2 format=2]', "", '[ext_resource path="res://main.gd" type="Script" id=1]', "", '[node name="Main" type="Node2D"]', "script = ExtResource( 1 )", ""].join("\n")
const GAME: ReadonlyArray<WriterEntry> = [
  { path: "res://manifest.json", data: utf8(JSON.stringify(MANIFEST)) },
  { path: "res://main.tscn", data: utf8(mainScene) },
  { path: "res://main.gd", data: utf8('extends EngineGame\n\nfunc _ready():\n\tOS.execute("ls", [])\n') },
]
const EXPECTED_GAME = ["res://main.gd:4 banned-api"]
const locatedRules = (findings: ReadonlyArray<{ file: string; line: number | null; rule: string }>): ReadonlyArray<string> =>
  findings.map((f) => `${f.file}${f.line === null ? "" : `:${f.line}`} ${f.rule}`)

describe("pack layouts by format", () => {
  it.each([1, 2, 3, 4])("format %i standalone: the game's finding and nothing else", async (format) => {
    const report = await scanBytes(writePack({ format, entries: GAME }))
    expect(locatedRules(report.findings)).toEqual(EXPECTED_GAME)
    expect(report.summary).toMatchObject({ packFormat: format, entryCount: 3 })
  })

  it("format 2 with PACK_REL_FILEBASE (4.3/4.4 embedded style) resolves offsets from the pack start", async () => {
    const report = await scanBytes(writePack({ format: 2, entries: GAME, packFlags: PACK_REL_FILEBASE }))
    expect(locatedRules(report.findings)).toEqual(EXPECTED_GAME)
  })

  it("paths with and without res:// are the same paths where the engine trims res:// (4.4 and later; redTeam5b.test.ts for the others)", async () => {
    const bare = await scanBytes(writePack({ format: 2, engine: [4, 4, 1], entries: GAME, bare: true }))
    const prefixed = await scanBytes(writePack({ format: 3, entries: GAME, bare: false }))
    expect(locatedRules(bare.findings)).toEqual(EXPECTED_GAME)
    expect(locatedRules(prefixed.findings)).toEqual(EXPECTED_GAME)
  })
})

describe("packs embedded in an executable", () => {
  const START = 8192
  const cases = [1, 2, 3].flatMap((format) => [
    { format, how: "ELF pck section + trailer", build: (p: Uint8Array) => concat(elfPrefix(START, p.length, START), p, trailer(p.length)), foundBy: "elf-section" },
    { format, how: "PE pck section, no trailer", build: (p: Uint8Array) => concat(pePrefix(START, p.length, START), p), foundBy: "pe-section" },
    { format, how: "trailer only", build: (p: Uint8Array) => concat(new Uint8Array(START), p, trailer(p.length)), foundBy: "trailer" },
  ])
  it.each(cases)("format $format via $how: content is read at the right offsets, and the executable is a finding", async ({ format, build, foundBy }) => {
    const report = await scanBytes(build(writePack({ format, entries: GAME }, START)))
    expect(locatedRules(report.findings)).toEqual(["(pack) pack-embedded-in-executable", ...EXPECTED_GAME])
    expect(report.findings[0]?.pattern).toBe(foundBy)
  })

  it("the exporter's 0-7 padding before the pack is probed past", async () => {
    const p = writePack({ format: 3, entries: GAME }, START + 5)
    const file = concat(elfPrefix(START, p.length, START), new Uint8Array(5), p)
    const report = await scanBytes(file)
    expect(locatedRules(report.findings)).toEqual(["(pack) pack-embedded-in-executable", ...EXPECTED_GAME])
  })

  it("a standalone pack that ends in GDPC (Godot 3.0/3.1 exports) is read from offset 0", async () => {
    const report = await scanBytes(concat(writePack({ format: 1, entries: GAME }), utf8("GDPC")))
    expect(locatedRules(report.findings)).toEqual(EXPECTED_GAME)
  })
})

describe("content that cannot be reviewed", () => {
  it("an encrypted directory: one finding, entry count still known", async () => {
    const report = await scanBytes(writePack({ format: 2, entries: GAME, packFlags: PACK_DIR_ENCRYPTED }))
    expect(report.findings.map((f) => [f.rule, f.message.slice(0, 46)])).toEqual([["pack-encrypted", "The pack directory is encrypted (3 entries dec"]])
    expect(report.findings[0]?.message).toContain("encrypted content cannot be reviewed")
    expect(report.summary.entryCount).toBe(3)
  })

  it("encrypted entries: a finding per entry, and their bytes are not interpreted", async () => {
    const report = await scanBytes(writePack({ format: 3, entries: [...GAME, { path: "secret.gd", data: utf8("extends Node\nOS.kill(1)\n"), flags: FILE_ENCRYPTED }] }))
    expect(locatedRules(report.findings)).toEqual([...EXPECTED_GAME, "res://secret.gd pack-encrypted"])
    expect(report.findings[1]?.message).toContain("encrypted content cannot be reviewed")
  })

  it("removal and delta entries: findings saying patch packs are not accepted", async () => {
    const report = await scanBytes(
      writePack({ format: 4, entries: [...GAME, { path: "old.gd", flags: FILE_REMOVAL }, { path: "level.tscn", data: utf8("GDDL\u0001zstd-frame"), flags: FILE_DELTA }] }),
    )
    expect(locatedRules(report.findings)).toEqual(["res://level.tscn pack-patch-content", ...EXPECTED_GAME, "res://old.gd pack-patch-content"])
    for (const f of report.findings.filter((x) => x.rule === "pack-patch-content")) expect(f.message).toContain("Patch packs are not accepted")
  })

  it("a sparse bundle: listed, then one finding", async () => {
    const report = await scanBytes(writePack({ format: 4, entries: GAME, packFlags: PACK_REL_FILEBASE | PACK_SPARSE_BUNDLE }))
    expect(locatedRules(report.findings)).toEqual(["(pack) pack-patch-content"])
    expect(report.summary.entryCount).toBe(3)
  })

  it("unknown pack flags and entry flags are findings", async () => {
    const report = await scanBytes(writePack({ format: 3, entries: [...GAME, { path: "x.bin", data: utf8("x"), flags: 0x40 }], packFlags: PACK_REL_FILEBASE | 0x100 }))
    expect(locatedRules(report.findings).filter((l) => l.includes("unknown-flags"))).toEqual(["(pack) pack-unknown-flags", "res://x.bin pack-unknown-flags"])
  })

  it.each([0, 5, 99, 0xffffffff])("format %i: identified, then 'unsupported pack format N', never a crash", async (format) => {
    const report = await scanBytes(writePack({ format, entries: GAME }))
    expect(report.findings.map((f) => f.rule)).toEqual(["pack-unsupported-format"])
    expect(report.findings[0]?.message).toContain(`unsupported pack format ${format}`)
    expect(report.summary.packFormat).toBe(format)
  })

  it("format 0 is listed like format 1", async () => {
    const report = await scanBytes(writePack({ format: 0, entries: GAME }))
    expect(report.summary.entryCount).toBe(3)
  })
})

describe("hostile directories are findings", () => {
  const hostile = async (entry: WriterEntry, format = 2) => scanBytes(writePack({ format, entries: [...GAME, entry] }))
  it.each([
    ["res://../escape.gd", "a '..' segment"],
    ["/etc/passwd", "an absolute path"],
    ["res:///etc/passwd", "an absolute path"],
    ["C:/Windows/evil.dll", "a drive-letter path"],
    ["res://dir\\evil.gd", "a backslash"],
    ["user://evil.gd", "a second scheme"],
    ["res://a//b.gd", "an empty or '.' segment"],
  ])("%s → %s", async (path, reason) => {
    const report = await hostile({ path, data: utf8("x"), rawPathBytes: utf8(path) })
    const f = report.findings.find((x) => x.rule === "pack-hostile-path")
    expect(f?.message).toContain(reason)
  })

  it("a NUL inside a name (not padding) is hostile", async () => {
    const report = await hostile({ path: "x", data: utf8("x"), rawPathBytes: concat(utf8("res://a.gd"), new Uint8Array([0]), utf8("b.png")) })
    expect(report.findings.find((x) => x.rule === "pack-hostile-path")?.message).toContain("NUL byte inside the name")
  })

  it("duplicate paths, also when one has res:// and the other not", async () => {
    const report = await scanBytes(writePack({ format: 2, entries: [...GAME, { path: "x", data: utf8("y"), rawPathBytes: utf8("main.gd") }] }))
    expect(locatedRules(report.findings)).toContain("res://main.gd pack-duplicate-path")
  })

  it("an entry whose bytes lie outside the file", async () => {
    const report = await hostile({ path: "big.png", data: utf8("x"), size: 10 ** 12 })
    expect(locatedRules(report.findings)).toContain("res://big.png pack-entry-out-of-bounds")
  })

  it("an entry that overlaps the directory (format 3: directory at the end)", async () => {
    const pack = writePack({ format: 3, entries: GAME })
    const dirOffset = new DataView(pack.buffer).getUint32(32, true)
    const report = await scanBytes(writePack({ format: 3, entries: [...GAME, { path: "dir.bin", data: utf8("x"), offset: dirOffset - 112 + 8, size: 32 }] }))
    expect(locatedRules(report.findings)).toContain("res://dir.bin pack-entry-overlaps-directory")
  })

  it("an entry that overlaps the header (format 1 absolute offsets)", async () => {
    const report = await hostile({ path: "hdr.bin", data: utf8("x"), offset: 0, size: 64 }, 1)
    expect(locatedRules(report.findings)).toContain("res://hdr.bin pack-entry-overlaps-directory")
  })

  it("an empty entry at offset 0, which the engine takes for erased: an error, and a load of its path reads the disk", async () => {
    // PackedData::try_open_path returns no file for offset 0 ("was erased"), so FileAccess reads res://p.gd from the
    // player's disk: a ninety-fifth red team's `load("res://p.gd")` of a script the game wrote to its working folder.
    const loader = { path: "res://main.gd", data: utf8('extends EngineGame\n\nfunc _ready():\n\tvar s = load("res://p.gd")\n') }
    // Format 1 stores offsets from the file's start (format 2 and later from the data's, never 0 in the file).
    const report = await scanBytes(writePack({ format: 1, entries: [...GAME.slice(0, 2), loader, { path: "res://p.gd", data: new Uint8Array(0), offset: 0, size: 0 }] }))
    expect(locatedRules(report.findings)).toEqual(expect.arrayContaining(["res://p.gd pack-hostile-path", "res://main.gd:4 banned-api"]))
    expect(report.findings.find((x) => x.file === "res://p.gd")?.message).toContain("offset 0, which the engine takes for an erased file")
    // Guard: the same empty file where the exporter puts it (also format 2's first file, at its data's offset 0) is in the pack.
    for (const format of [1, 2]) {
      const stored = await scanBytes(writePack({ format, entries: [{ path: "res://p.gd", data: new Uint8Array(0), ...(format === 2 ? { offset: 0 } : {}) }, ...GAME.slice(0, 2), loader] }))
      expect(locatedRules(stored.findings)).toEqual([])
    }
  })

  it("a file count the file cannot hold is rejected before allocating", async () => {
    const report = await scanBytes(writePack({ format: 2, entries: GAME, fileCount: 0x7fffffff }))
    expect(report.findings.map((f) => f.rule)).toEqual(["pack-directory-too-large"])
    const slightlyTooMany = await scanBytes(writePack({ format: 2, entries: GAME, fileCount: 1000 }))
    expect(slightlyTooMany.findings.map((f) => f.rule)).toEqual(["pack-truncated"])
  })

  it("a path length beyond the limit stops the directory with a finding", async () => {
    const b = new ByteBuilder().ascii("GDPC").u32(1).u32(3).u32(5).u32(3).zeros(64).u32(1).u32(0xfffffff0).zeros(64)
    const report = await scanBytes(b.build())
    expect(report.findings.map((f) => [f.rule, f.pattern])).toEqual([["pack-hostile-path", "path length"]])
  })

  it("a directory cut short keeps the entries read so far", async () => {
    const pack = writePack({ format: 2, entries: GAME })
    const dirEnd = 100 + GAME.reduce((n, e) => n + 4 + Math.ceil(`res://${e.path.replace("res://", "")}`.length / 4) * 4 + 36, 0)
    const report = await scanBytes(pack.subarray(0, dirEnd - 10))
    expect(report.findings.map((f) => f.rule)).toContain("pack-truncated")
    expect(report.summary.entryCount).toBe(2)
  })

  it.each([0, 3, 4, 19, 20, 50, 99])("a pack cut to %i bytes is a finding or not-a-pack, never an exception", async (length) => {
    const report = await scanBytes(writePack({ format: 2, entries: GAME }).subarray(0, length))
    expect(report.ok).toBe(false)
    expect(report.findings.map((f) => f.rule)).toEqual([length < 4 ? "pack-not-godot" : "pack-truncated"])
  })

  it("format 3 with the directory offset outside the file", async () => {
    const pack = writePack({ format: 3, entries: GAME })
    new DataView(pack.buffer).setUint32(32, pack.length + 100, true)
    const report = await scanBytes(pack)
    expect(report.findings.map((f) => [f.rule, f.pattern])).toEqual([["pack-truncated", "directory offset"]])
  })

  it("random bytes are not a pack", async () => {
    const report = await scanBytes(utf8("just some text that is not a Godot pack at all"))
    expect(report.findings.map((f) => f.rule)).toEqual(["pack-not-godot"])
  })
})
