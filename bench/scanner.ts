// `npm run bench scanner`: what a scan costs against simply reading the pack.
// - the largest corpus pack: scan time and bytes read;
// - a generated pack just under 2 GiB (a few scripts and scenes among large assets): scan time and
//   bytes read against `cat file > /dev/null` of the same file (warm page cache for both);
// - peak RSS of a standalone `check` process on the 2 GiB pack.
// Timings vary run to run: each figure is the median of interleaved runs.
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { open } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { zstdCompressSync } from "node:zlib"
import { openFileByteSource } from "../adapters/scanner/fileByteSource.ts"
import { nodeDecompressors } from "../adapters/scanner/nodeDecompressors.ts"
import { defaultPolicy } from "../adapters/scanner/policy/defaultPolicy.ts"
import { scanPack } from "../adapters/scanner/scanPack.ts"
import { MULTIPART_MAX_BYTES } from "../domain/release/Limits.ts"
import type { ScanReport } from "../domain/scan/ScanReport.ts"
import { type BaselineScan, BASELINE_COMMIT, loadBaselineScanner } from "./support/baselineScanner.ts"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const RUNS = 5
const CORPUS_RUNS = 15
const CORPUS_WARMUPS = 2
const MiB = 1024 * 1024
const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? Number.NaN
}

const timed = async <A>(f: () => Promise<A>): Promise<{ ms: number; value: A }> => {
  const start = performance.now()
  const value = await f()
  return { ms: performance.now() - start, value }
}

/** A scan as `check` runs it, with the bytes the file source read from the file (whole blocks for small reads). */
const scanCounted = async (path: string): Promise<{ report: ScanReport; bytesFromFile: number }> => {
  const source = await openFileByteSource(path)
  try {
    const report = await scanPack(source, { path: "multipart" }, { policy: defaultPolicy, decompressors: nodeDecompressors })
    return { report, bytesFromFile: source.bytesFromFile }
  } finally {
    await source.close()
  }
}

const scan = async (path: string): Promise<ScanReport> => (await scanCounted(path)).report

const catMs = (path: string): number => {
  const start = performance.now()
  const result = spawnSync("sh", ["-c", 'cat "$0" > /dev/null', path])
  if (result.status !== 0) throw new Error(`cat failed: ${result.stderr}`)
  return performance.now() - start
}

// ---- a synthetic Godot 4.5+ (format 3) pack of the requested size ----

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s)
const u32 = (v: number): Uint8Array => new Uint8Array(new Uint32Array([v]).buffer)
const u64 = (v: number): Uint8Array => {
  const b = new Uint8Array(8)
  const view = new DataView(b.buffer)
  view.setUint32(0, v % 2 ** 32, true)
  view.setUint32(4, Math.floor(v / 2 ** 32), true)
  return b
}
const join8 = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
const ustring = (s: string): Uint8Array => join8(u32(utf8(s).length + 1), utf8(s), new Uint8Array(1))

/** A binary resource whose only property is a large PackedByteArray: a big entry with small tables. */
const bigResource = (payload: number, compressed = false): { head: Uint8Array; tail: Uint8Array } => {
  // RSCC streams have no magic, so their offsets count from the field after it.
  const magic = compressed ? new Uint8Array(0) : utf8("RSRC")
  const header = join8(magic, u32(0), u32(0), u32(4), u32(5), u32(6), ustring("Image"), u64(0), u32(0), u64(0), new Uint8Array(44))
  const tables = join8(u32(1), ustring("data"), u32(0), u32(1), ustring("local://Image_main"))
  const offset = header.length + tables.length + 8
  const body = join8(ustring("Image"), u32(1), u32(0), u32(31), u32(payload))
  return { head: join8(header, tables, u64(offset), body), tail: join8(new Uint8Array((4 - (payload % 4)) % 4), utf8("RSRC")) }
}

/** The same resource saved compressed (RSCC, zstd, 4 KiB blocks), as the editor saves .res and imports .fontdata. */
const rsccResource = (payload: Uint8Array): Uint8Array => {
  const { head, tail } = bigResource(payload.length, true)
  const stream = join8(head, payload, tail)
  const blocks: Array<Uint8Array> = []
  for (let at = 0; at <= stream.length; at += 4096) {
    const chunk = stream.subarray(at, Math.min(stream.length, at + 4096))
    blocks.push(chunk.length === 0 ? new Uint8Array(0) : new Uint8Array(zstdCompressSync(chunk)))
    if (at + 4096 > stream.length) break
  }
  return join8(utf8("RSCC"), u32(2), u32(4096), u32(stream.length), ...blocks.map((b) => u32(b.length)), ...blocks, utf8("RSCC"))
}

interface GeneratedEntry {
  readonly path: string
  readonly write: (fh: import("node:fs/promises").FileHandle, at: number, md5: ReturnType<typeof createHash>) => Promise<number>
}

const bytesEntry = (path: string, data: Uint8Array): GeneratedEntry => ({
  path,
  write: async (fh, at, md5) => {
    await fh.write(data, 0, data.length, at)
    md5.update(data)
    return data.length
  },
})

/** Large assets are written from one reusable random block, so generation costs disk time only. */
const assetEntry = (path: string, size: number, block: Uint8Array, head: Uint8Array = new Uint8Array(0), tail: Uint8Array = new Uint8Array(0)): GeneratedEntry => ({
  path,
  write: async (fh, at, md5) => {
    await fh.write(head, 0, head.length, at)
    md5.update(head)
    let written = head.length
    const body = size - head.length - tail.length
    for (let done = 0; done < body; ) {
      const n = Math.min(block.length, body - done)
      await fh.write(block, 0, n, at + written)
      md5.update(block.subarray(0, n))
      written += n
      done += n
    }
    await fh.write(tail, 0, tail.length, at + written)
    md5.update(tail)
    return written + tail.length
  },
})

export const generatePack = async (path: string, targetBytes: number): Promise<void> => {
  const block = new Uint8Array(16 * MiB)
  let x = 0x2545f491
  for (let i = 0; i < block.length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    block[i] = x & 0xff
  }
  const manifest = { id: "bench", name: "Bench", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://main.tscn", min_players: 1, max_players: 4 }
  const rscc = rsccResource(block.subarray(0, 8 * MiB))
  const small: ReadonlyArray<GeneratedEntry> = [
    bytesEntry("manifest.json", utf8(JSON.stringify(manifest))),
    bytesEntry("main.tscn", utf8('[gd_scene format=3]\n[ext_resource type="Script" path="res://main.gd" id="1"]\n[node name="Main" type="Node2D"]\nscript = ExtResource("1")\n')),
    bytesEntry("main.gd", utf8(`extends EngineGame\n\n${"func f():\n\tvar x = 1\n".repeat(2000)}`)),
    bytesEntry("player.gd", utf8(`extends Node2D\n${"# comment line\n".repeat(5000)}\nfunc _ready():\n\tOS.execute("ls", [])\n`)),
    bytesEntry("level.tscn", utf8(`[gd_scene format=3]\n[sub_resource type="GDScript" id="GDScript_a"]\nscript/source = "extends Node\n"\n[node name="L" type="Node2D"]\n`)),
    bytesEntry("fonts/ui.fontdata", rscc),
  ]
  const smallBytes = 2 * MiB
  const assetCount = 4
  const resourceBytes = 256 * MiB
  const assetBytes = Math.floor((targetBytes - smallBytes - resourceBytes - 64 * 1024) / assetCount / 16) * 16
  const res = bigResource(resourceBytes - 200)
  const resourceEntry = assetEntry(".godot/imported/terrain.res", res.head.length + resourceBytes - 200 + res.tail.length, block, res.head, res.tail)
  const assets = Array.from({ length: assetCount }, (_, i) => assetEntry(`.godot/imported/texture_${i}.ctex`, assetBytes, block, utf8("GST2")))
  const entries = [...small, resourceEntry, ...assets]

  const fh = await open(path, "w")
  try {
    const directory: Array<Uint8Array> = []
    let at = 112
    for (const entry of entries) {
      const md5 = createHash("md5")
      const size = await entry.write(fh, at, md5)
      const padded = Math.ceil(size / 16) * 16
      const name = utf8(entry.path)
      const paddedName = new Uint8Array(Math.ceil(name.length / 4) * 4)
      paddedName.set(name)
      directory.push(join8(u32(paddedName.length), paddedName, u64(at - 112), u64(size), new Uint8Array(md5.digest()), u32(0)))
      at += padded
    }
    const dir = join8(u32(entries.length), ...directory)
    await fh.write(dir, 0, dir.length, at)
    const header = join8(utf8("GDPC"), u32(3), u32(4), u32(5), u32(0), u32(2), u64(112), u64(at), new Uint8Array(64))
    await fh.write(header, 0, header.length, 0)
  } finally {
    await fh.close()
  }
}

// ---- peak RSS of a standalone check process ----

const CHECK_CHILD = `
const { command } = await import(${JSON.stringify(join(ROOT, "apps/cli/commands/check.ts"))})
const code = await command.run([process.argv[1], "--json"], { stdout: () => {}, stderr: (t) => process.stderr.write(t), env: {}, stderrIsTty: false })
process.stdout.write(JSON.stringify({ code, maxRssKiB: process.resourceUsage().maxRSS }))
`

/** Peak RSS (MiB) of one process tree, measured from outside by GNU time; the import-only child where time is missing. */
const peakMiB = (command: string, args: ReadonlyArray<string>, env: Readonly<Record<string, string>>): number => {
  const childEnv = { ...process.env, ...env }
  if (existsSync("/usr/bin/time")) {
    const result = spawnSync("/usr/bin/time", ["-f", "maxrss=%M", command, ...args], { encoding: "utf8", cwd: ROOT, env: childEnv })
    const kib = /maxrss=(\d+)/.exec(result.stderr)?.[1]
    if (kib === undefined || (result.status !== 0 && result.status !== 1)) throw new Error(`check process failed: ${result.stderr}`)
    return Number(kib) / 1024
  }
  const pack = args.at(-2) ?? ""
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", CHECK_CHILD, pack], { encoding: "utf8", cwd: ROOT, env: childEnv })
  if (result.status !== 0) throw new Error(`check process failed: ${result.stderr}`)
  const { maxRssKiB } = JSON.parse(result.stdout) as { maxRssKiB: number }
  return maxRssKiB / 1024
}

/**
 * Node strips types with a WebAssembly compiler the first time a process loads a .ts file (~20 MB
 * RSS); `check` turns the compile cache on for the scanner modules. The goal's figure is the npm
 * script creators run (`npm run -s cli -- check`: the compile cache and a 2 MiB young generation
 * set by the script); `node apps/cli/main.ts` run directly, first time and later, for comparison.
 */
const checkProcessPeaks = (pack: string, scratch: string): { cold: number; warm: number; npmScript: number } => {
  const tmp = join(scratch, "tmp")
  mkdirSync(tmp, { recursive: true })
  const direct = (): number => peakMiB(process.execPath, [join(ROOT, "apps/cli/main.ts"), "check", pack, "--json"], { TMPDIR: tmp })
  const viaScript = (): number => peakMiB("npm", ["run", "-s", "cli", "--", "check", pack, "--json"], {})
  const cold = direct()
  const warm = median([1, 2, 3].map(direct))
  viaScript()
  const npmScript = median([1, 2, 3, 4, 5].map(viaScript))
  return { cold, warm, npmScript }
}

// ---- the suite ----

const corpusDir = (): string => process.env.PCK_CORPUS_DIR ?? resolve(ROOT, "../shared/corpus/pck")

const largestCorpusPack = (): string | null => {
  const dir = corpusDir()
  if (!existsSync(dir)) return null
  const packs = readdirSync(dir).filter((f) => f.endsWith(".pck"))
  return packs.map((f) => join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0] ?? null
}

/** The corpus pack with the most GDScript source (its scripts are the analysis's heaviest work). */
const mostScriptCorpusPack = (): string | null => {
  const path = join(corpusDir(), "g4.0.0-v2-builtin-dadbod-beta.pck")
  return existsSync(path) ? path : null
}

const pct = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(3)}%`

/**
 * `runs` scans of `path`, each followed by one timed run of `beside` (a baseline, `cat`), so that a machine slowing
 * down mid-run slows both; the last scan's report and the bytes its file source read.
 */
const interleaved = async (path: string, runs: number, beside: (() => Promise<number>) | null): Promise<{ times: Array<number>; besides: Array<number>; report: ScanReport | null; bytesFromFile: number }> => {
  const times: Array<number> = []
  const besides: Array<number> = []
  let last: { report: ScanReport; bytesFromFile: number } | null = null
  for (let i = 0; i < runs; i++) {
    const r = await timed(() => scanCounted(path))
    times.push(r.ms)
    last = r.value
    if (beside !== null) besides.push(await beside())
  }
  return { times, besides, report: last?.report ?? null, bytesFromFile: last?.bytesFromFile ?? 0 }
}

/** Scan times of a corpus pack against the baseline's, after warm-up runs of each (module compilation is not the scan's cost). */
const corpusTimes = async (path: string, baseline: BaselineScan | null): Promise<{ times: Array<number>; before: Array<number>; report: ScanReport | null }> => {
  for (let i = 0; i < CORPUS_WARMUPS; i++) {
    await scan(path)
    if (baseline !== null) await baseline(path)
  }
  const { times, besides, report } = await interleaved(path, CORPUS_RUNS, baseline === null ? null : async () => (await timed(() => baseline(path))).ms)
  return { times, before: besides, report }
}

export const run = async (): Promise<void> => {
  // The "at most 2x" goal is against the scanner before the GDScript front end, measured here in the same run.
  const baseline = await loadBaselineScanner(ROOT)
  if ("unavailable" in baseline) console.log(`baseline scanner (${BASELINE_COMMIT.slice(0, 7)}, before the GDScript front end): ${baseline.unavailable}; ratios not printed`)
  try {
    for (const [label, corpusPack, goal] of [
      ["largest corpus pack", largestCorpusPack(), "goal <= 2x"],
      ["corpus pack with the most GDScript", mostScriptCorpusPack(), "no goal: the issue's is for the largest pack"],
    ] as const) {
      if (corpusPack === null) {
        console.log(`${label}: corpus folder not found (set PCK_CORPUS_DIR); skipped`)
        continue
      }
      const name = corpusPack.split("/").at(-1) ?? ""
      const { times, before, report } = await corpusTimes(corpusPack, "scan" in baseline ? baseline.scan : null)
      const s = report?.summary
      const ratio = before.length === 0 ? "" : `; ${(median(times) / median(before)).toFixed(2)}x the scanner before the GDScript front end (${BASELINE_COMMIT.slice(0, 7)}: ${median(before).toFixed(1)} ms median, interleaved; ${goal})`
      console.log(
        `${label} (${name}, ${s?.packBytes} bytes, ${s?.entryCount} entries): scan ${median(times).toFixed(1)} ms median of ${CORPUS_RUNS} (fastest ${Math.min(...times).toFixed(1)} ms)${ratio}; read ${s?.bytesRead} bytes = ${pct(s?.bytesRead ?? 0, s?.packBytes ?? 1)} of the pack; ${s?.errors} errors, ${s?.warnings} warnings (${report?.scannerVersion})`,
      )
    }
  } finally {
    if ("dispose" in baseline) baseline.dispose()
  }

  const dir = mkdtempSync(join(tmpdir(), "pckgate-bench-"))
  try {
    const pack = join(dir, "big.pck")
    const target = MULTIPART_MAX_BYTES - 16 * MiB
    const gen = await timed(() => generatePack(pack, target))
    const size = statSync(pack).size
    console.log(`generated pack: ${size} bytes (${(size / 2 ** 30).toFixed(2)} GiB, 12 entries) in ${(gen.ms / 1000).toFixed(1)} s`)
    catMs(pack) // warm the page cache so both sides read from memory
    const { times: scans, besides: cats, report, bytesFromFile: fromFile } = await interleaved(pack, RUNS, async () => catMs(pack))
    const s = report?.summary
    const scanMs = median(scans)
    const cat = median(cats)
    console.log(`2 GiB pack: scan ${scanMs.toFixed(1)} ms vs cat ${cat.toFixed(1)} ms (median of ${RUNS}, interleaved): scan/cat = ${(scanMs / cat).toFixed(4)}`)
    console.log(`2 GiB pack: read ${s?.bytesRead} of ${s?.packBytes} bytes = ${pct(s?.bytesRead ?? 0, s?.packBytes ?? 1)} (goal < 1%), ${fromFile} bytes = ${pct(fromFile, s?.packBytes ?? 1)} from the file (whole 64 KiB blocks for small reads); findings ${JSON.stringify(s?.countsByRule)}`)
    const peaks = checkProcessPeaks(pack, dir)
    for (const [label, mib] of [
      ["run directly, first time (no compile cache yet)", peaks.cold],
      ["run directly, later (modules after main.ts from the compile cache)", peaks.warm],
      ["npm run -s cli -- check (compile cache and --max-semi-space-size=2 set by the script)", peaks.npmScript],
    ] as const) {
      console.log(`standalone check process on the 2 GiB pack, ${label}: peak RSS ${mib.toFixed(1)} MiB = ${((mib * MiB) / 1e6).toFixed(1)} MB; ${(((mib * MiB) / 1e6) / 100).toFixed(2)} of the 100 MB goal`)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
