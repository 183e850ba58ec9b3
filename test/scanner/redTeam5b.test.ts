// What a fifth red team got past pckgate-scanner/7 in the pack format, judged without Godot: entries stored
// without res:// in each pack format, and names spelled in overlong UTF-8 or cut by a NUL, read as the engine
// reads them (property tests). The engine-run proofs are the attack-rt5-* projects of attackCorpus.test.ts
// (fixtures/attackProjects8.ts).
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { bytesSource } from "../../adapters/scanner/io/RandomAccess.ts"
import { nodeDecompressors } from "../../adapters/scanner/nodeDecompressors.ts"
import { readProjectBinary } from "../../adapters/scanner/packFiles/projectBinary.ts"
import { openBinaryResource } from "../../adapters/scanner/resource/binaryResource.ts"
import { readBinaryScripts } from "../../adapters/scanner/resource/binaryScripts.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { writeProjectBinary } from "./support/projectBinaryWriter.ts"
import { writeBinaryScene } from "./support/resourceWriter.ts"
import { scanBytes } from "./support/scan.ts"

describe("an entry stored without res://, per pack format", () => {
  /** `file pattern` of the pack-hostile-path errors of a pack whose autoload names res://evil.gd, stored as the bare `evil.gd`. */
  const hostile = async (format: number, engine: readonly [number, number, number]): Promise<ReadonlyArray<string>> => {
    const pack = writePack({
      format,
      engine,
      entries: [
        { path: "res://project.binary", data: writeProjectBinary([["application/config/name", "G"], ["autoload/Evil", "*res://evil.gd"]]) },
        { path: "evil.gd", rawPathBytes: utf8("evil.gd"), data: utf8("extends Node\n") },
      ],
    })
    return (await scanBytes(pack)).findings.filter((f) => f.rule === "pack-hostile-path" && f.severity === "error").map((f) => `${f.file}${f.line === null ? "" : `:${f.line}`} ${f.pattern}`)
  }

  it.each([
    [1, [3, 2, 3]],
    [1, [3, 5, 3]],
    [2, [4, 3, 0]],
  ] as const)("format %i (%j) hashes the stored path as it is and looks up res://…: the entry is unreachable, the autoload reads the disk (PackedData::add_path, try_open_path)", async (format, engine) => {
    expect(await hostile(format, engine)).toEqual(["res://evil.gd unsafe path", "res://project.binary:10 project setting autoload/Evil"])
  })

  it.each([
    [2, [4, 4, 1]],
    [3, [4, 5, 0]],
  ] as const)("format %i (%j) trims res:// on both sides (simplify_path().trim_prefix): the bare entry is the file", async (format, engine) => {
    expect(await hostile(format, engine)).toEqual([])
  })

  it("the finding says why the entry cannot be found", async () => {
    const report = await scanBytes(writePack({ format: 1, entries: [{ path: "a.gd", rawPathBytes: utf8("a.gd"), data: utf8("extends Node\n") }] }))
    expect(report.findings.find((f) => f.file === "res://a.gd")?.message).toContain('no "res://" prefix: the engine of this pack (format 1, 3.5.3) looks files up by their full res:// path')
  })
})

/** `name` spelled as bytes: each marked character (code 0x10 or above: Godot 3 refuses lower ones) as E0 8x xx, then optionally a NUL and junk. */
const spelling = (name: string) =>
  fc.record({ overlong: fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }), junk: fc.option(fc.uint8Array({ minLength: 1, maxLength: 4 }).map((b) => b.map((x) => x | 1)), { nil: undefined }) }).map(({ overlong, junk }) => {
    const bytes: Array<number> = []
    for (let i = 0; i < name.length; i++) {
      const c = name.charCodeAt(i)
      if (overlong[i] === true && c >= 0x10) bytes.push(0xe0, 0x80 | (c >> 6), 0x80 | (c & 0x3f))
      else bytes.push(c)
    }
    if (junk !== undefined) bytes.push(0, ...junk)
    return { bytes: Uint8Array.from(bytes), strict: bytes.length === name.length }
  })

describe("names as the engine reads them (String::parse_utf8: overlong forms are letters, a NUL ends the name)", () => {
  it("project.binary keys (_load_settings_binary) and Godot 3's string values (_decode_string), with the lines of what is not strict UTF-8", () => {
    fc.assert(
      fc.property(spelling("autoload/Evil"), spelling("*user://evil.gd"), fc.constantFrom(3 as const, 4 as const), (key, value, godot) => {
        // Godot 4 drops a value its decoder complains about (_decode_string fails): values are spelled for Godot 3 only.
        const stored = godot === 3 ? value : { bytes: utf8("*user://evil.gd"), strict: true }
        const decoded = readProjectBinary(writeProjectBinary([["application/config/name", "Game"], [key.bytes, stored.bytes]]), godot)
        expect(decoded?.text).toContain('[autoload]\n\nEvil="*user://evil.gd"\n')
        expect(decoded?.notStrictLines).toEqual(key.strict && stored.strict ? [] : [10])
      }),
    )
  })

  it("a binary resource's inline property name (ResourceLoaderBinary::_get_string): the built-in script's source is found whatever its spelling", async () => {
    const source = 'extends Node\nfunc _init():\n\tOS.execute("touch", [])\n'
    await fc.assert(
      fc.asyncProperty(spelling("script/source"), fc.constantFrom(3, 4), async (name, engineMajor) => {
        const scene = writeBinaryScene({ engineMajor, scripts: [{ id: "1", source, propertyBytes: name.bytes }], nodes: [{ name: "Root", type: "Node", parent: -1, script: { builtIn: 0 } }] })
        const { scripts } = await readBinaryScripts(await openBinaryResource(bytesSource(scene), nodeDecompressors))
        expect(scripts.map((s) => s.source)).toEqual([source])
      }),
    )
  })

  it("a scene whose property name is not strict UTF-8 is an error of its own, and its script is judged", async () => {
    const scene = (propertyBytes?: Uint8Array) => writeBinaryScene({ engineMajor: 3, scripts: [{ id: "1", source: "extends Node\nfunc _init():\n\tOS.execute(\"touch\", [])\n", ...(propertyBytes === undefined ? {} : { propertyBytes }) }], nodes: [{ name: "Root", type: "Node", parent: -1, script: { builtIn: 0 } }] })
    const policies = async (data: Uint8Array) => (await scanBytes(writePack({ format: 1, entries: [{ path: "res://level.scn", data }] }))).findings.filter((f) => f.file === "res://level.scn").map((f) => `${f.line ?? ""} ${/\(policy ([a-z0-9-]+)\)/.exec(f.message)?.[1] ?? f.rule}`)
    expect(await policies(scene(Uint8Array.from([...utf8("scr"), 0xe0, 0x81, 0xa9, ...utf8("pt/source")])))).toEqual([" non-strict-utf8", "3 os-process"])
    // The same scene as an exporter writes it: the script's own finding only.
    expect(await policies(scene())).toEqual(["3 os-process"])
  })
})
