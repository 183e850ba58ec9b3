// `npm run bench reading`: reading a pack as a reviewer (issue 15), on the server with its embedded defaults (SQLite,
// local disk). Figures: listing every file of the largest corpus pack and diffing it against a copy with one changed
// script, each against the 200 ms goal and as a ratio to reading the release's stored scan report on the same server
// (a plain record read: the baseline); and the bytes one file view reads against the pack's directory plus that entry.
import { createHash } from "node:crypto"
import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { CountingSource } from "../adapters/scanner/io/CountingSource.ts"
import { bytesSource } from "../adapters/scanner/io/RandomAccess.ts"
import { openPack } from "../adapters/scanner/pack/openPack.ts"
import { readPackFile } from "../adapters/scanner/packFiles/readPackFile.ts"
import { locateCorpus, readSources } from "../test/scanner/support/corpus.ts"
import { apiClient } from "../test/support/api.ts"
import { startServer } from "../test/support/server.ts"
import { median, ratio, timeAsync } from "./support/measure.ts"

const RUNS = 9
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** A copy of the pack with one byte of one script (`.gd`, or a compiled `.gdc`) changed; same length, so the directory still fits. */
const withOneScriptChanged = async (bytes: Uint8Array): Promise<{ copy: Uint8Array; script: string }> => {
  const opened = await openPack(bytesSource(bytes))
  if (opened._tag !== "Readable") throw new Error("the corpus pack does not open")
  const script = opened.entries.find((e) => e.path.endsWith(".gd") && e.size > 64) ?? opened.entries.find((e) => e.path.endsWith(".gdc") && e.size > 64)
  if (script === undefined) throw new Error("the corpus pack has no script")
  const copy = bytes.slice()
  const at = script.dataOffset + script.size - 2
  copy[at] = (copy[at] ?? 0) ^ 1
  return { copy, script: script.path }
}

export const run = async () => {
  const corpus = locateCorpus()
  if (corpus.dir === null) throw new Error(corpus.skipReason ?? "no corpus")
  const largest = [...readSources(corpus.dir)].sort((a, b) => b.bytes - a.bytes)[0]!
  const original = new Uint8Array(readFileSync(join(corpus.dir, largest.file)))
  const { copy, script } = await withOneScriptChanged(original)
  const server = await startServer({ env: { RATE_LIMIT_COUNT: "100000", SCAN_INTERVAL_SECONDS: "1" } })
  try {
    const api = apiClient(server.baseUrl)
    const owner = server.token("bench-reading-owner")
    const admin = server.token("bench-reading-admin", { admin: true })
    const gameId = (await api.createGame(owner, { name: "Bench Reading" })).body.gameId as string
    const ship = async (version: string, bytes: Uint8Array) => {
      const reply = await api.uploadRelease(owner, gameId, { bytes, declaration: { version, sha256: sha256(bytes), sizeBytes: bytes.length } })
      if (reply.status !== 201) throw new Error(`finalize ${version}: ${JSON.stringify(reply.body)}`)
      while ((await api.call("GET", `/api/games/${gameId}/releases/${version}/scan`, { token: admin })).body.status !== "scanned") {
        await new Promise((r) => setTimeout(r, 200))
      }
    }
    await ship("1.0.0", original)
    // Through the review gate once it exists: a corpus pack has findings, so the approval carries an override.
    const approved = await api.call("POST", `/api/admin/games/${gameId}/releases/1.0.0/approve`, { token: admin, body: { override: { reason: "benchmark" } } })
    if (approved.status !== 200) throw new Error(`approve: ${JSON.stringify(approved.body)}`)
    await ship("1.1.0", copy)
    const base = `/api/admin/games/${gameId}/releases`
    const get = async (path: string) => {
      const reply = await api.call("GET", path, { token: admin })
      if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`)
      return reply.body
    }
    // The first listing and diff compute and store the entry hashes (one streamed read of each pack).
    const firstList = await timeAsync(() => get(`${base}/1.0.0/files`))
    const firstDiff = await timeAsync(() => get(`${base}/1.1.0/diff`))
    const diff = await get(`${base}/1.1.0/diff`)
    const files = (await get(`${base}/1.0.0/files`)).files.length
    const times = { report: [] as number[], list: [] as number[], diff: [] as number[] }
    for (let i = 0; i < RUNS; i++) {
      times.report.push(await timeAsync(() => get(`/api/games/${gameId}/releases/1.0.0/scan`)))
      times.list.push(await timeAsync(() => get(`${base}/1.0.0/files`)))
      times.diff.push(await timeAsync(() => get(`${base}/1.1.0/diff`)))
    }
    const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`
    const m = { report: median(times.report), list: median(times.list), diff: median(times.diff) }
    console.log(`${largest.file} (${original.length} bytes, ${files} files listed); ${RUNS} interleaved runs over loopback, medians:`)
    console.log(`  GET …/files (all ${files})        ${ms(m.list)}  vs GET …/scan ${ms(m.report)} → ${ratio(m.list, m.report)}; first listing (hashes computed) ${ms(firstList)} (goal < 200 ms)`)
    console.log(`  GET …/diff (1 script changed)   ${ms(m.diff)}  vs GET …/scan ${ms(m.report)} → ${ratio(m.diff, m.report)}; first diff (hashes of the copy) ${ms(firstDiff)} (goal < 200 ms)`)
    console.log(`  the diff lists ${diff.files.map((f: { path: string; change: string }) => `${f.change} ${f.path}`).join(", ")} (changed: ${script})`)
    // Bytes one file view reads, through the reader the endpoint uses (exact reads, counted).
    const directory = await openPack(bytesSource(original))
    if (directory._tag !== "Readable") throw new Error("unreadable")
    const entry = directory.entries.find((e) => e.path === script)!
    const counting = new CountingSource(bytesSource(original))
    // By the creator's path, as a reviewer opens it: a compiled script is found through its .remap stub.
    const viewed = entry.path.replace(/\.gdc$/, ".gd")
    if ((await readPackFile(counting, viewed)) === null) throw new Error(`${viewed} does not open`)
    const directoryBytes = original.length - directory.header.directoryStart
    console.log(`  viewing ${viewed}: read ${counting.bytesRead} bytes = ${(100 * counting.bytesRead / original.length).toFixed(2)}% of the pack; directory + entry = ${directoryBytes + entry.size} bytes (goal: at most that, plus the header and the .remap stub)`)
  } finally {
    await server.stop()
    rmSync(server.dataDir, { recursive: true, force: true })
  }
}
