// Property-based robustness: random and mutated packs never throw, never hang, never read (and so
// never allocate) more than the file can justify.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { ScanReport } from "../../domain/scan/ScanReport.ts"
import type { ByteSource } from "../../ports/PackScanner.ts"
import { tokenize } from "../../adapters/scanner/gdscript/tokenizer.ts"
import { MalformedData } from "../../adapters/scanner/io/errors.ts"
import { bytesSource } from "../../adapters/scanner/io/RandomAccess.ts"
import { nodeDecompressors } from "../../adapters/scanner/nodeDecompressors.ts"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import { openBinaryResource } from "../../adapters/scanner/resource/binaryResource.ts"
import { readBinarySceneFacts } from "../../adapters/scanner/resource/binaryScene.ts"
import { readBinaryScripts } from "../../adapters/scanner/resource/binaryScripts.ts"
import { TextResourceReader } from "../../adapters/scanner/resource/textResource.ts"
import { scanPack } from "../../adapters/scanner/scanPack.ts"
import { utf8 } from "./support/bytes.ts"
import { locateCorpus } from "./support/corpus.ts"
import { FILE_ENCRYPTED, writePack } from "./support/packWriter.ts"
import { writeBinaryScene } from "./support/resourceWriter.ts"
import { hitsIn } from "./support/analyze.ts"

interface Instrumented {
  readonly source: ByteSource
  readonly stats: { calls: number; bytes: number; largest: number }
}

/** A byte source that records how it is used: the number of reads bounds the steps, the largest read bounds allocations. */
const instrumented = (bytes: Uint8Array): Instrumented => {
  const stats = { calls: 0, bytes: 0, largest: 0 }
  return {
    stats,
    source: {
      size: bytes.length,
      read: async (offset, length) => {
        stats.calls += 1
        stats.bytes += length
        stats.largest = Math.max(stats.largest, length)
        return bytes.slice(offset, offset + length)
      },
    },
  }
}

const scanInstrumented = async (bytes: Uint8Array): Promise<{ report: ScanReport; stats: Instrumented["stats"] }> => {
  const { source, stats } = instrumented(bytes)
  const report = await scanPack(source, { path: "multipart" }, { policy: defaultPolicy, decompressors: nodeDecompressors })
  return { report, stats }
}

/** What every scan of arbitrary bytes must satisfy. */
const expectBounded = (bytes: Uint8Array, { report, stats }: Awaited<ReturnType<typeof scanInstrumented>>): void => {
  expect(report.findings.filter((f) => f.message.includes("internal error"))).toEqual([])
  expect(stats.largest).toBeLessThanOrEqual(Math.max(bytes.length, 0))
  // Each read makes progress on some structure of the file; a loop that does not would blow this bound.
  expect(stats.calls).toBeLessThanOrEqual(bytes.length + 64)
  expect(report.summary.entryCount).toBeLessThanOrEqual(Math.ceil(bytes.length / 36))
  expect(report.summary.packBytes).toBe(bytes.length)
}

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1", engine_sdk: "1", entry_scene: "res://main.tscn", min_players: 1, max_players: 1 }))
const scene = writeBinaryScene({ scripts: [{ id: "GDScript_a", source: 'extends EngineGame\nfunc _ready():\n\tOS.execute("x", [])\n' }], nodes: [{ name: "M", type: "Node2D", parent: -1, script: { builtIn: 0 } }] })
const compressedScene = writeBinaryScene({ scripts: [{ id: "GDScript_b", source: "extends EngineGame\n" }], nodes: [{ name: "M", type: "Node2D", parent: -1, script: { builtIn: 0 } }], compressed: true })
const SEEDS: ReadonlyArray<Uint8Array> = [1, 2, 3, 4].map((format) =>
  writePack({
    format,
    entries: [
      { path: "res://manifest.json", data: MANIFEST },
      { path: "res://main.tscn.remap", data: utf8('[remap]\n\npath="res://main.scn"\n') },
      { path: "res://main.scn", data: format % 2 === 0 ? scene : compressedScene },
      { path: "res://lvl.tscn", data: utf8('[gd_scene format=2]\n[sub_resource type="GDScript" id=1]\nscript/source = "extends Node\nOS.kill(1)\n"\n[node name="A" type="Node"]\n') },
      { path: "res://a.gd", data: utf8('extends Node\nfunc f():\n\tcall("execute")\n') },
      ...(format >= 2 ? [{ path: "res://s.gd", data: utf8("extends Node"), flags: FILE_ENCRYPTED }] : []),
    ],
  }),
)

const corpus = locateCorpus()
const CORPUS_SAMPLES = corpus.dir === null
  ? []
  : [
      "g3.2.3-v1-pckpacker-patchtool.pck",
      "g3.2.3-v1-pckpacker-truncated-84b.pck",
      "g4.4.1-v2-949886-games.pck",
      "g4.2.1-v2-builtin-basegamegodot.pck",
      "g4.7.1-v4-gdextension-godotcppci.pck",
      "g4.4.0-v2-game2048.pck",
      "g4.0.0-v2-nikkxi-beta.pck",
      "g2.1.0-v0-ld40-dontbegreedy.pck",
    ].map((f) => new Uint8Array(readFileSync(join(corpus.dir ?? "", f))))

/** Mutations that target what parsers trust: counts, lengths and offsets, anywhere or near the start. */
const mutation = (size: number) =>
  fc.oneof(
    fc.record({ kind: fc.constant("byte" as const), at: fc.nat({ max: size - 1 }), value: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant("u32" as const), at: fc.nat({ max: Math.max(0, size - 4) }), value: fc.constantFrom(0, 1, 0x7fffffff, 0xffffffff, 0x80000000, size, size - 1, 4096, 16) }),
    fc.record({ kind: fc.constant("head-u32" as const), at: fc.nat({ max: Math.min(size - 4, 255) }), value: fc.integer({ min: 0, max: 0xffffffff }) }),
    fc.record({ kind: fc.constant("truncate" as const), at: fc.nat({ max: size }), value: fc.constant(0) }),
  )

const mutate = (original: Uint8Array, mutations: ReadonlyArray<{ kind: string; at: number; value: number }>): Uint8Array => {
  let bytes = original.slice()
  for (const m of mutations) {
    if (m.kind === "truncate") bytes = bytes.slice(0, m.at)
    else if (m.kind === "byte") {
      if (m.at < bytes.length) bytes[m.at] = m.value
    } else if (m.at + 4 <= bytes.length) new DataView(bytes.buffer).setUint32(m.at, m.value >>> 0, true)
  }
  return bytes
}

const packSamples = [...SEEDS, ...CORPUS_SAMPLES]

describe("fuzzing the pack reader", () => {
  it("random bytes, with and without a GDPC header: findings, never an exception", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), fc.boolean(), fc.integer({ min: 0, max: 6 }), async (random, withHeader, format) => {
        const bytes = withHeader ? new Uint8Array([...utf8("GDPC"), format, 0, 0, 0, ...random]) : random
        const result = await scanInstrumented(bytes)
        expectBounded(bytes, result)
        expect(result.report.ok).toBe(false)
      }),
      { numRuns: 300 },
    )
  })

  it("mutated writer packs (formats 1-4, RSRC and RSCC scenes, text scenes, encrypted entries)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: SEEDS.length - 1 }).chain((i) => fc.tuple(fc.constant(i), fc.array(mutation(SEEDS[i]?.length ?? 1), { minLength: 1, maxLength: 6 }))),
        async ([i, mutations]) => {
          const bytes = mutate(SEEDS[i] ?? new Uint8Array(), mutations)
          expectBounded(bytes, await scanInstrumented(bytes))
        },
      ),
      { numRuns: 400 },
    )
  })

  it.skipIf(CORPUS_SAMPLES.length === 0)("mutated real packs from the corpus", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: CORPUS_SAMPLES.length - 1 }).chain((i) => fc.tuple(fc.constant(i), fc.array(mutation(CORPUS_SAMPLES[i]?.length ?? 1), { minLength: 1, maxLength: 8 }))),
        async ([i, mutations]) => {
          const bytes = mutate(CORPUS_SAMPLES[i] ?? new Uint8Array(), mutations)
          expectBounded(bytes, await scanInstrumented(bytes))
        },
      ),
      { numRuns: 300 },
    )
  })

  it("every sample scans cleanly before mutation (the properties start from valid input)", async () => {
    for (const bytes of packSamples) expectBounded(bytes, await scanInstrumented(bytes))
  })
})

describe("fuzzing the content parsers", () => {
  const resourceSamples = [scene, compressedScene]

  it("binary resources: parsed, or MalformedData; nothing else", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: resourceSamples.length - 1 }).chain((i) => fc.tuple(fc.constant(i), fc.array(mutation(resourceSamples[i]?.length ?? 1), { minLength: 1, maxLength: 4 }))),
        async ([i, mutations]) => {
          const bytes = mutate(resourceSamples[i] ?? new Uint8Array(), mutations)
          try {
            const resource = await openBinaryResource(bytesSource(bytes), nodeDecompressors)
            await readBinaryScripts(resource)
            await readBinarySceneFacts(resource)
          } catch (error) {
            expect(error).toBeInstanceOf(MalformedData)
          }
        },
      ),
      { numRuns: 400 },
    )
  })

  it("text resources: facts, or MalformedData; nothing else", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("[", "]", '"', "\\", "\n", "=", "(", ")", "{", "}", "script/source", '[sub_resource type="GDScript" id=1]', "[node ", "parent=", "type=", "a", " ", ";"), { maxLength: 200 }), (parts) => {
        const reader = new TextResourceReader()
        try {
          reader.feed(parts.join(""))
          reader.finish()
        } catch (error) {
          expect(error).toBeInstanceOf(MalformedData)
        }
      }),
      { numRuns: 500 },
    )
  })

  it("GDScript: any text tokenizes, parses and is analysed without exceptions in both grammars, positions only move forward", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: fc.constantFrom(..."OS.execute(\"'#\\\n\t r&^$%@_)]},=+ cal()1x:funcvar[{") }), fc.constantFrom(3 as const, 4 as const), (source, grammar) => {
        const tokens = tokenize(source, grammar).filter((t) => t.kind !== "eof")
        for (let i = 1; i < tokens.length; i++) {
          const a = tokens[i - 1]
          const b = tokens[i]
          if (a !== undefined && b !== undefined) expect(b.line > a.line || (b.line === a.line && b.column >= a.column)).toBe(true)
        }
        hitsIn(source, {}, grammar)
      }),
      { numRuns: 1000 },
    )
  })
})
