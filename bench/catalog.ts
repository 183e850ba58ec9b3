// Issue 17 goals, as ratios against GET /healthz on the same server in the same run, on SQLite and on MariaDB, with
// 10,000 published games (100,000 approved releases) and 10,000 pending releases, seeded with bulk INSERTs:
//   a catalog page of 50 ≥ 50% of /healthz's rate; a 304 revalidation ≥ 80%; a search page ≥ 20%;
//   the review queue's first page under 20 ms of server time.
// The server runs as configured by default (serialized catalog pages kept under GAME_VIEW_CACHE_MS, dropped by the
// change feed, answered without the Effect runtime once kept: CatalogPageCacheOptions.fastHits). Each figure alternates
// with /healthz for nine short rounds (BENCH_ROUNDS; the VM's speed drifts, single rounds range over 5–200%); medians.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import { Effect, Layer, ManagedRuntime } from "effect"
import { layerSystemClock } from "../adapters/system/SystemClock.ts"
import { reviewQueue } from "../domain/review/Review.ts"
import { layerSqlRecords, SqlDatabase, type SqlTarget } from "../adapters/sql/index.ts"
import { ensureDebianPackages } from "../test/setup/apt.ts"
import { MARIADB_SERVER, startMariaDb } from "../test/setup/mariadb.ts"
import { analyze, seedCatalog } from "../test/support/seedCatalog.ts"
import { startServer } from "../test/support/server.ts"
import { cpuSecondsOf, median } from "./support/measure.ts"

const SEED = { games: 10_000, releasesPerGame: 10, pending: 10_000, owners: 200 }
const PAGES = 20
const DURATION_SECONDS = Number(process.env["BENCH_SECONDS"] ?? 2)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 10)
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 9)
const QUEUE_REQUESTS = 50
const QUEUE_GOAL_MS = 20

type Requests = NonNullable<Parameters<typeof autocannon>[0]["requests"]>

const measure = async (baseUrl: string, pid: number, requests: Requests) => {
  const cpuBefore = cpuSecondsOf(pid)
  const result = await autocannon({ url: baseUrl, connections: CONNECTIONS, duration: DURATION_SECONDS, requests })
  if (result.errors > 0 || result["4xx"] > 0 || result["5xx"] > 0) throw new Error(`${result["4xx"] + result["5xx"]} failed answers, ${result.errors} errors`)
  return { rate: result.requests.average, p99: result.latency.p99, cpuMicros: ((cpuSecondsOf(pid) - cpuBefore) * 1e6) / result.requests.total }
}
type Measured = Awaited<ReturnType<typeof measure>>

/** `requests` and /healthz alternately for ROUNDS rounds: the median ratio of their rates, and the median round. */
const againstHealthz = async (baseUrl: string, pid: number, requests: Requests) => {
  const healthz = [{ method: "GET", path: "/healthz" }]
  await measure(baseUrl, pid, requests) // warm-up
  const ratios: Array<number> = []
  const runs: Array<Measured> = []
  const healthzCpu: Array<number> = []
  for (let round = 0; round < ROUNDS; round++) {
    const first = round % 2 === 0
    const base = first ? await measure(baseUrl, pid, healthz) : null
    const run = await measure(baseUrl, pid, requests)
    const trivial = base ?? await measure(baseUrl, pid, healthz)
    runs.push(run)
    healthzCpu.push(trivial.cpuMicros)
    ratios.push(run.rate / trivial.rate)
  }
  return { ratio: median(ratios), ratios, run: [...runs].sort((a, b) => a.rate - b.rate)[Math.floor(runs.length / 2)]!, healthzCpuMicros: median(healthzCpu) }
}

/** The first PAGES pages of `query` (paths and entity tags), by following nextCursor. */
const pagesOf = async (baseUrl: string, query: string) => {
  const pages: Array<{ path: string; etag: string }> = []
  let cursor: string | null = null
  while (pages.length < PAGES) {
    const path: string = `/api/catalog?${query}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
    const reply = await fetch(`${baseUrl}${path}`)
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status}`)
    const body = await reply.json() as { games: Array<unknown>; nextCursor: string | null }
    pages.push({ path, etag: reply.headers.get("etag")! })
    if (body.nextCursor === null) break
    cursor = body.nextCursor
  }
  return pages
}

const seedStore = async (target: SqlTarget) => {
  const runtime = ManagedRuntime.make(layerSqlRecords({ target }))
  try {
    const database = await runtime.runPromise(SqlDatabase.use(Effect.succeed))
    const started = performance.now()
    await seedCatalog(database.db, database.time, SEED)
    await analyze(database.db, database.dialect.name)
    return performance.now() - started
  } finally {
    await runtime.dispose()
  }
}

/** The review queue's first page as the server computes it (the use case on the same stores), timed in-process. */
const queueUseCaseMs = async (target: SqlTarget) => {
  const runtime = ManagedRuntime.make(Layer.merge(layerSqlRecords({ target }), layerSystemClock))
  try {
    const admin = { userId: "bench-admin", isAdmin: true }
    const times: Array<number> = []
    for (let i = 0; i < QUEUE_REQUESTS + 5; i++) {
      const started = performance.now()
      const page = await runtime.runPromise(reviewQueue(admin))
      if (page.items.length !== 50) throw new Error(`review queue: ${page.items.length} items`)
      if (i >= 5) times.push(performance.now() - started)
    }
    return times
  } finally {
    await runtime.dispose()
  }
}

const p95 = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)]!

/** One figure: its rate as a share of /healthz's (the goal), and the CPU-bound share (/healthz's CPU over this one's). */
const line = (label: string, r: { run: Measured; ratio: number; ratios: ReadonlyArray<number>; healthzCpuMicros: number }, goal: number) =>
  `  ${label.padEnd(34)} ${r.run.rate.toFixed(0).padStart(7)} req/s  p99 ${String(r.run.p99).padStart(4)} ms  ${(r.ratio * 100).toFixed(0).padStart(4)}% of /healthz ` +
  `(goal ≥ ${goal * 100}%: ${r.ratio >= goal ? "met" : "NOT met"}; rounds ${r.ratios.map((x) => `${(x * 100).toFixed(0)}%`).join(" ")})  ` +
  `server CPU ${r.run.cpuMicros.toFixed(0)} µs/request, ${((r.healthzCpuMicros / r.run.cpuMicros) * 100).toFixed(0)}% CPU-bound share`

const benchStore = async (name: string, target: SqlTarget, env: Record<string, string>, dataDir: string) => {
  mkdirSync(dataDir, { recursive: true })
  const seededMs = await seedStore(target)
  const server = await startServer({ dataDir, env: { ...env, RATE_LIMIT_COUNT: "1000000" } })
  try {
    const pid = server.process.pid!
    const catalog = await pagesOf(server.baseUrl, "limit=50")
    const searches = (await Promise.all(["seed game 1", "seed game 23", "SEED GAME 456", "seed-game-7", "seed game 9"].map((q) => pagesOf(server.baseUrl, `limit=50&q=${encodeURIComponent(q)}`)))).flat()
    const page = await againstHealthz(server.baseUrl, pid, catalog.map(({ path }) => ({ method: "GET", path })))
    const revalidation = await againstHealthz(server.baseUrl, pid, catalog.map(({ path, etag }) => ({ method: "GET", path, headers: { "if-none-match": etag } })))
    const search = await againstHealthz(server.baseUrl, pid, searches.map(({ path }) => ({ method: "GET", path })))
    // The review queue: sequential requests, each timed from send to last byte over loopback (an upper bound on the
    // server's time); the queue is not cached, so every request reads its page from the database.
    const admin = { authorization: `Bearer ${server.token("bench-admin", { admin: true })}` }
    const queueMs: Array<number> = []
    for (let i = 0; i < QUEUE_REQUESTS + 5; i++) {
      const started = performance.now()
      const reply = await fetch(`${server.baseUrl}/api/admin/review-queue`, { headers: admin })
      const body = await reply.json() as { items: Array<unknown> }
      if (reply.status !== 200 || body.items.length !== 50) throw new Error(`review queue: ${reply.status}, ${body.items.length} items`)
      if (i >= 5) queueMs.push(performance.now() - started)
    }
    const queueMedian = median(queueMs)
    const queueP95 = p95(queueMs)
    const useCase = await queueUseCaseMs(target)
    console.log(`${name} (${SEED.games} published games, ${SEED.games * SEED.releasesPerGame} approved + ${SEED.pending} pending releases, seeded in ${(seededMs / 1000).toFixed(1)} s; ` +
      `${CONNECTIONS} connections, ${DURATION_SECONDS} s per measurement, medians of ${ROUNDS} rounds alternating with /healthz):`)
    console.log(`  /healthz server CPU: ${page.healthzCpuMicros.toFixed(0)} µs/request`)
    console.log(line(`catalog page of 50 (${catalog.length} pages)`, page, 0.5))
    console.log(line("304 revalidation (If-None-Match)", revalidation, 0.8))
    console.log(line(`search page (${searches.length} pages, 5 queries)`, search, 0.2))
    console.log(`  review queue, first page of 50 with ${SEED.pending} pending: server time (the use case in-process) median ${median(useCase).toFixed(1)} ms, ` +
      `p95 ${p95(useCase).toFixed(1)} ms (goal < ${QUEUE_GOAL_MS} ms: ${median(useCase) < QUEUE_GOAL_MS ? "met" : "NOT met"}); ` +
      `over HTTP, send to last byte: median ${queueMedian.toFixed(1)} ms, p95 ${queueP95.toFixed(1)} ms`)
  } finally {
    await server.stop()
  }
}

export const run = async () => {
  ensureDebianPackages([{ binary: MARIADB_SERVER, pkg: "mariadb-server" }])
  const dir = mkdtempSync(join(tmpdir(), "pckgate-bench-catalog-"))
  const mariadb = process.env["BENCH_ONLY"] === "sqlite" ? null : await startMariaDb()
  try {
    if (process.env["BENCH_ONLY"] !== "mariadb") await benchStore("SQLite", { kind: "sqlite", path: join(dir, "sqlite", "pckgate.sqlite") }, {}, join(dir, "sqlite"))
    if (mariadb !== null) await benchStore("MariaDB 10.11", { kind: "mysql", url: mariadb.url }, { DATABASE_URL: mariadb.url }, join(dir, "mariadb"))
  } finally {
    await mariadb?.destroy()
    rmSync(dir, { recursive: true, force: true })
  }
}
