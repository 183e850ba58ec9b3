// Issue 3 goal: download-url at ≥ 50% of the rate of a trivial route (GET /healthz) on the same server, on SQLite and
// on MariaDB, with 100 games × 10 releases; GET /api/catalog alongside. One run, autocannon, p99 printed.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import { Effect } from "effect"
import { layerSqlRecords, type SqlTarget } from "../adapters/sql/index.ts"
import { releaseObjectKey } from "../domain/release/ObjectKey.ts"
import { GameStore } from "../ports/GameStore.ts"
import { ReleaseStore } from "../ports/ReleaseStore.ts"
import { ensureDebianPackages } from "../test/setup/apt.ts"
import { MARIADB_SERVER, startMariaDb } from "../test/setup/mariadb.ts"
import { startServer } from "../test/support/server.ts"

const GAMES = 100
const RELEASES_PER_GAME = 10
const DURATION_SECONDS = Number(process.env["BENCH_SECONDS"] ?? 8)
const CONNECTIONS = 10

/** 100 games × 10 approved releases, written through the SQL stores themselves. */
export const seed = (target: SqlTarget) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const games = yield* GameStore
      const releases = yield* ReleaseStore
      const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms)
      const gameIds: Array<string> = []
      for (let g = 0; g < GAMES; g++) {
        const id = `gm_bench${String(g).padStart(4, "0")}`
        gameIds.push(id)
        yield* games.insert({ id, name: `Bench Game ${g} 🎮`, slug: `bench-game-${g}`, kind: "engine", ownerId: `owner-${g}`, manifestId: null, createdAt: at(g), updatedAt: at(g) })
        for (let r = 0; r < RELEASES_PER_GAME; r++) {
          const version = `1.${r}.0`
          const sha256 = (g * 100 + r).toString(16).padStart(64, "0")
          const objectKey = releaseObjectKey(id, version, sha256)
          const intent = { id: `ui_bench${g}_${r}`, gameId: id, version, sha256, sizeBytes: 4096, contentType: "application/octet-stream", objectKey, createdBy: `owner-${g}`, createdAt: at(g * 1000 + r), expiresAt: at(9e10) }
          yield* releases.recordIntent(intent)
          yield* releases.finalize(intent.id, { gameId: id, version, sha256, sizeBytes: 4096, contentType: intent.contentType, objectKey, source: "release_api", status: "pending_review", createdBy: intent.createdBy, createdAt: intent.createdAt, reviewedBy: null, reviewedAt: null, rejectionReason: null })
          yield* releases.review(id, version, { status: "approved", by: "bench-admin", at: at(g * 1000 + r + 1), reason: null })
        }
      }
      return gameIds
    }).pipe(Effect.provide(layerSqlRecords({ target }))),
  )

/** The store's share of one stranger's download-url: the game row and its releases, timed in-process. */
const storeReadsMicros = (target: SqlTarget, gameIds: ReadonlyArray<string>) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const games = yield* GameStore
      const releases = yield* ReleaseStore
      const iterations = 2000
      const started = performance.now()
      for (let i = 0; i < iterations; i++) {
        const gameId = gameIds[i % gameIds.length]!
        yield* games.get(gameId)
        yield* releases.listByGame(gameId)
      }
      return ((performance.now() - started) * 1000) / iterations
    }).pipe(Effect.provide(layerSqlRecords({ target }))),
  )

const measure = async (baseUrl: string, requests: Parameters<typeof autocannon>[0]["requests"]) => {
  const result = await autocannon({ url: baseUrl, connections: CONNECTIONS, duration: DURATION_SECONDS, ...(requests !== undefined ? { requests } : {}) })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors`)
  return result
}

const benchStore = async (name: string, target: SqlTarget, env: Record<string, string>, dataDir: string) => {
  mkdirSync(dataDir, { recursive: true })
  const gameIds = await seed(target)
  const storeMicros = await storeReadsMicros(target, gameIds)
  const server = await startServer({ dataDir, env: { ...env, RATE_LIMIT_COUNT: "1000000" } })
  try {
    // A signed-in stranger: the public download path, which reads the game and its releases to find the active one.
    const authorization = `Bearer ${server.token("bench-stranger")}`
    let next = 0
    const downloadUrl = [{
      method: "GET",
      headers: { authorization },
      setupRequest: (request: { path?: string }) => ({ ...request, path: `/api/games/${gameIds[next++ % gameIds.length]}/releases/1.${RELEASES_PER_GAME - 1}.0/download-url` }),
    }]
    await measure(server.baseUrl, [{ method: "GET", path: "/healthz" }]) // warm-up: JIT, connections, caches
    const healthz = await measure(server.baseUrl, [{ method: "GET", path: "/healthz" }])
    const download = await measure(server.baseUrl, downloadUrl)
    const catalog = await measure(server.baseUrl, [{ method: "GET", path: "/api/catalog" }])
    const line = (label: string, r: typeof healthz) =>
      `  ${label.padEnd(28)} ${r.requests.average.toFixed(0).padStart(7)} req/s  p99 ${String(r.latency.p99).padStart(4)} ms  ${(r.requests.average / healthz.requests.average * 100).toFixed(0).padStart(4)}% of /healthz`
    console.log(`${name} (${GAMES} games × ${RELEASES_PER_GAME} releases, ${CONNECTIONS} connections, ${DURATION_SECONDS} s each):`)
    console.log(line("GET /healthz (ceiling)", healthz))
    console.log(line("GET …/download-url", download) + `  (goal ≥ 50%: ${download.requests.average >= healthz.requests.average / 2 ? "met" : "NOT met"})`)
    console.log(line("GET /api/catalog", catalog))
    console.log(`  store reads per download-url (game + its releases, in-process, one at a time): ${storeMicros.toFixed(0)} µs`)
  } finally {
    await server.stop()
  }
}

export const run = async () => {
  ensureDebianPackages([{ binary: MARIADB_SERVER, pkg: "mariadb-server" }])
  const dir = mkdtempSync(join(tmpdir(), "pckgate-bench-sql-"))
  const mariadb = await startMariaDb()
  try {
    await benchStore("SQLite", { kind: "sqlite", path: join(dir, "sqlite", "pckgate.sqlite") }, {}, join(dir, "sqlite"))
    await benchStore("MariaDB 10.11", { kind: "mysql", url: mariadb.url }, { DATABASE_URL: mariadb.url }, join(dir, "mariadb"))
  } finally {
    await mariadb.destroy()
    rmSync(dir, { recursive: true, force: true })
  }
}
