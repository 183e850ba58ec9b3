// `npm run bench reading`: reading a pack as a reviewer (issue 15) on the server with its embedded defaults (SQLite,
// local disk), started as `npm start` starts it. Goals, each printed met or NOT met:
//   - listing every file of the largest corpus pack, and diffing it against a copy with one changed script: each under
//     200 ms of server time, also the first time (when the entry hashes are computed and stored);
//   - viewing one file reads at most the pack's directory plus that entry's bytes (and the pack's first 4 KiB, where
//     finding the pack looks for its header).
// Server time is what the reading routes report in `Server-Timing` (adapters/http/routes/reviewFiles.ts): `handler`,
// the handler's wall time from its start through the use case, its reads and the JSON serialisation (not the HTTP
// parsing or sending), and `cpu`, the server process's CPU time meanwhile; requests run one at a time, so nothing else
// runs in the process then. The goals are checked on the handler's wall time (medians), which includes waiting for the
// disk and the database; CPU time is printed beside it, since on a loaded machine the wall time also counts the waits
// for a core. As a ratio baseline, GET …/scan (one stored record) on the same server in the same run, both timed at the
// client (the scan route reports no Server-Timing).
// Bytes are counted through the ObjectStorage port of an in-process app (the test app, memory store) by a counting
// decorator, for the same /file endpoint: the reads the endpoint asks the port for do not depend on the store.
import { createHash } from "node:crypto"
import { readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { bytesSource } from "../adapters/scanner/io/RandomAccess.ts"
import { openPack } from "../adapters/scanner/pack/openPack.ts"
import type { ObjectStorage } from "../ports/ObjectStorage.ts"
import { locateCorpus, readSources } from "../test/scanner/support/corpus.ts"
import { apiClient } from "../test/support/api.ts"
import { startServer } from "../test/support/server.ts"
import { makeTestApp, newGame, release } from "../test/support/testApp.ts"
import { median, ratio } from "./support/measure.ts"

const RUNS = 9
/** Fresh releases whose first listing (or first diff) is timed, each computing and storing its entry hashes. */
const FIRSTS = 5
const GOAL_MS = 200
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")
const verdict = (met: boolean) => (met ? "met" : "NOT met")

/** A copy of the pack with one byte of one script (`.gd`, or a compiled `.gdc`) changed; same length, so the directory still fits. */
const withOneScriptChanged = async (bytes: Uint8Array) => {
  const opened = await openPack(bytesSource(bytes))
  if (opened._tag !== "Readable") throw new Error("the corpus pack does not open")
  const script = opened.entries.find((e) => e.path.endsWith(".gd") && e.size > 64) ?? opened.entries.find((e) => e.path.endsWith(".gdc") && e.size > 64)
  if (script === undefined) throw new Error("the corpus pack has no script")
  const copy = bytes.slice()
  const at = script.dataOffset + script.size - 2
  copy[at] = (copy[at] ?? 0) ^ 1
  return { copy, script, opened }
}

interface Timing {
  readonly handler: number
  readonly cpu: number
  readonly client: number
}

/** A metric of a Server-Timing header; NaN when absent (GET …/scan, the baseline, reports none: it is compared at the client). */
const serverTiming = (header: string | null, name: string): number => {
  const match = new RegExp(`(?:^|,\\s*)${name};dur=([\\d.]+)`).exec(header ?? "")
  return match === null ? Number.NaN : Number(match[1])
}

const ms = (value: number) => `${value.toFixed(1)} ms`
const medians = (timings: ReadonlyArray<Timing>): Timing => ({
  handler: median(timings.map((t) => t.handler)),
  cpu: median(timings.map((t) => t.cpu)),
  client: median(timings.map((t) => t.client)),
})
const timingLine = (t: Timing) => `handler ${ms(t.handler)} (CPU ${ms(t.cpu)}; ${ms(t.client)} at the client)`

/** Listing and diffing on the running server: server times against the 200 ms goal. */
const serverTimes = async (original: Uint8Array, copy: Uint8Array) => {
  const server = await startServer({ env: { RATE_LIMIT_COUNT: "100000", SCAN_INTERVAL_SECONDS: "1" } })
  try {
    const api = apiClient(server.baseUrl)
    const owner = server.token("bench-reading-owner")
    const admin = server.token("bench-reading-admin", { admin: true })
    const gameId = (await api.createGame(owner, { name: "Bench Reading" })).body.gameId as string
    const ship = async (version: string, bytes: Uint8Array) => {
      const reply = await api.uploadRelease(owner, gameId, { bytes, declaration: { version, sha256: sha256(bytes), sizeBytes: bytes.length } })
      if (reply.status !== 201) throw new Error(`finalize ${version}: ${JSON.stringify(reply.body)}`)
      await api.scanned(admin, gameId, version, 60_000)
    }
    const timed = async (path: string): Promise<Timing & { body: any }> => {
      const started = performance.now()
      const response = await fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${admin}` } })
      const body = await response.json()
      const client = performance.now() - started
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`)
      const header = response.headers.get("server-timing")
      const timing = { body, client, handler: serverTiming(header, "handler"), cpu: serverTiming(header, "cpu") }
      if (path.includes("/api/admin/") && !(timing.handler >= 0 && timing.cpu >= 0)) throw new Error(`${path}: no Server-Timing handler and cpu (${header})`)
      return timing
    }
    const base = `/api/admin/games/${gameId}/releases`
    await ship("1.0.0", original)
    // A corpus pack has findings: the approval goes through the gate with an override.
    const approved = await api.call("POST", `${base}/1.0.0/approve`, { token: admin, body: { override: { reason: "benchmark" } } })
    if (approved.status !== 200) throw new Error(`approve: ${JSON.stringify(approved.body)}`)
    const firstVersions = Array.from({ length: FIRSTS }, (_, i) => `2.0.${i}`)
    const diffVersions = Array.from({ length: FIRSTS }, (_, i) => `1.1.${i}`)
    for (const version of firstVersions) await ship(version, original)
    for (const version of diffVersions) await ship(version, copy)

    // The very first request of the server (the code not yet compiled by the JIT), then first listings and diffs of
    // fresh releases on a warm server: each computes and stores the release's entry hashes.
    const cold = await timed(`${base}/1.0.0/files`)
    const firstLists = [] as Array<Timing>
    for (const version of firstVersions) firstLists.push(await timed(`${base}/${version}/files`))
    const firstDiffs = [] as Array<Timing & { body: any }>
    for (const version of diffVersions) firstDiffs.push(await timed(`${base}/${version}/diff?against=1.0.0`))
    const times = { report: [] as Array<Timing>, list: [] as Array<Timing>, diff: [] as Array<Timing> }
    for (let i = 0; i < RUNS; i++) {
      times.report.push(await timed(`/api/games/${gameId}/releases/1.0.0/scan`))
      times.list.push(await timed(`${base}/1.0.0/files`))
      times.diff.push(await timed(`${base}/1.1.0/diff?against=1.0.0`))
    }
    return {
      cold,
      files: cold.body.files.length,
      firstLists: medians(firstLists),
      firstDiffs: medians(firstDiffs),
      diff: firstDiffs[0]!.body,
      report: medians(times.report),
      list: medians(times.list),
      diffs: medians(times.diff),
    }
  } finally {
    await server.stop()
    rmSync(server.dataDir, { recursive: true, force: true })
  }
}

/** Bytes GET …/file reads through the ObjectStorage port, on the in-process app with a counting decorator. */
const bytesOfOneView = async (original: Uint8Array, creatorPath: string) => {
  const counted = { bytes: 0 }
  // No background scan: its reads would be counted with the view's.
  const t = await makeTestApp({
    scanWorker: false,
    wrapStorage: (storage: ObjectStorage["Service"]): ObjectStorage["Service"] => ({
      ...storage,
      readRange: (key, offset, length) => Effect.tap(storage.readRange(key, offset, length), (bytes) => Effect.sync(() => (counted.bytes += bytes.length))),
      read: () => Effect.die(new Error("a file view must use ranged reads, never a whole-object read")),
    }),
  })
  try {
    const owner = await t.token("owner")
    const admin = await t.token("admin", { admin: true })
    const gameId = await newGame(t, owner, "Bench Bytes")
    const finalized = await release(t, owner, gameId, { bytes: original, declaration: { version: "1.0.0", sha256: sha256(original), sizeBytes: original.length } })
    if (finalized.status !== 201) throw new Error(`finalize: ${JSON.stringify(finalized.body)}`)
    counted.bytes = 0
    const reply = await t.api.call("GET", `/api/admin/games/${gameId}/releases/1.0.0/file?path=${encodeURIComponent(creatorPath)}`, { token: admin })
    if (reply.status !== 200) throw new Error(`file: ${reply.status} ${JSON.stringify(reply.body)}`)
    return counted.bytes
  } finally {
    await t.dispose()
  }
}

export const run = async () => {
  const corpus = locateCorpus()
  if (corpus.dir === null) throw new Error(corpus.skipReason ?? "no corpus")
  const largest = [...readSources(corpus.dir)].sort((a, b) => b.bytes - a.bytes)[0]!
  const original = new Uint8Array(readFileSync(join(corpus.dir, largest.file)))
  const { copy, script, opened } = await withOneScriptChanged(original)
  const m = await serverTimes(original, copy)

  console.log(`${largest.file} (${original.length} bytes, ${m.files} files listed); server time from Server-Timing, medians:`)
  const listMet = m.list.handler < GOAL_MS && m.firstLists.handler < GOAL_MS
  const diffMet = m.diffs.handler < GOAL_MS && m.firstDiffs.handler < GOAL_MS
  console.log(`  GET …/files (all ${m.files}), hashes stored   ${timingLine(m.list)}; at the client vs GET …/scan ${ms(m.report.client)} → ${ratio(m.list.client, m.report.client)}`)
  console.log(`  GET …/files, first of a release (${FIRSTS})   ${timingLine(m.firstLists)}`)
  console.log(`  goal: listing < ${GOAL_MS} ms of server time, first listing included: ${verdict(listMet)}`)
  console.log(`  (the server's very first request, before the JIT compiled the code: ${timingLine(m.cold)})`)
  console.log(`  GET …/diff (1 script changed), stored     ${timingLine(m.diffs)}; at the client vs GET …/scan → ${ratio(m.diffs.client, m.report.client)}`)
  console.log(`  GET …/diff, first of a release (${FIRSTS})    ${timingLine(m.firstDiffs)}`)
  console.log(`  goal: diff < ${GOAL_MS} ms of server time, first diff included: ${verdict(diffMet)}`)
  console.log(`  the diff lists ${m.diff.files.map((f: { path: string; change: string }) => `${f.change} ${f.path}`).join(", ")} (changed: ${script.path})`)

  // By the creator's path, as a reviewer opens it: a compiled script is found through its .remap stub.
  const viewed = script.path.replace(/\.gdc$/, ".gd")
  const read = await bytesOfOneView(original, viewed)
  if (opened._tag !== "Readable") throw new Error("unreadable")
  const { header } = opened
  // The directory ends where the first entry after it starts (formats 1 and 2), or with the file (format 3 writes it last).
  const after = opened.entries.map((e) => e.dataOffset).filter((offset) => offset >= header.directoryStart)
  const directoryBytes = (after.length === 0 ? original.length : Math.min(...after)) - header.directoryStart
  const stub = opened.entries.find((e) => e.path === `${viewed}.remap`)?.size ?? 0
  const bound = Math.max(4096, header.headerBytes) + directoryBytes + script.size + stub
  console.log(`  GET …/file of ${viewed}: read ${read} bytes through ObjectStorage = ${(100 * read / original.length).toFixed(2)}% of the pack; ` +
    `first 4 KiB + directory ${directoryBytes} + entry ${script.size}${stub > 0 ? ` + .remap stub ${stub}` : ""} = ${bound} bytes`)
  console.log(`  goal: one file view reads at most the directory plus that entry (and the pack's first 4 KiB): ${verdict(read <= bound)}`)
}
