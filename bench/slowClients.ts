// Issue 12 goal: under 2,000 connections that each send one byte per second (half trickling request headers, half a
// JSON body), GET /healthz and download-url keep answering within 100 ms at the 99th percentile. Printed as the p99
// under that load against the p99 of the same routes on the same server without it, measured in this run.
import { spawn } from "node:child_process"
import { resolve } from "node:path"
import autocannon from "autocannon"
import { apiClient, artifact } from "../test/support/api.ts"
import { startServer } from "../test/support/server.ts"

const SLOW_CONNECTIONS = Number(process.env["BENCH_SLOW_CONNECTIONS"] ?? 2000)
const DURATION_SECONDS = Number(process.env["BENCH_SECONDS"] ?? 5)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 10)

const p99 = async (url: string, path: string, headers: Record<string, string> = {}) => {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, requests: [{ method: "GET", path, headers }] })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${path}: ${result.non2xx} non-2xx answers and ${result.errors} errors`)
  return { p99: result.latency.p99, rate: result.requests.average }
}

/** Starts the slow clients in their own process; resolves once every connection is open. */
const slowClients = (url: string, token: string) =>
  new Promise<{ stop: () => void }>((done, fail) => {
    const child = spawn(process.execPath, [resolve(import.meta.dirname, "support/slowClients.ts"), url, String(SLOW_CONNECTIONS), "120", token], {
      stdio: ["ignore", "pipe", "inherit"],
    })
    let out = ""
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString()
      if (/ready \d+/.test(out)) done({ stop: () => child.kill() })
    })
    child.once("exit", (code) => fail(new Error(`slow clients exited early (${code}): ${out}`)))
  })

export const run = async () => {
  const server = await startServer({ env: { RATE_LIMIT_COUNT: "1000000" } })
  try {
    const api = apiClient(server.baseUrl)
    const owner = server.token("bench-owner")
    const gameId: string = (await api.createGame(owner, { name: "Slow Bench" })).body.gameId
    const pck = artifact(8192)
    if ((await api.uploadRelease(owner, gameId, pck)).status !== 201) throw new Error("could not release the bench's pack")
    const download = `/api/games/${gameId}/releases/1.0.0/download-url`
    const auth = { authorization: `Bearer ${owner}` }
    await p99(server.baseUrl, "/healthz") // warm-up
    const quiet = { healthz: await p99(server.baseUrl, "/healthz"), download: await p99(server.baseUrl, download, auth) }
    const load = await slowClients(server.baseUrl, owner)
    let loaded
    try {
      loaded = { healthz: await p99(server.baseUrl, "/healthz"), download: await p99(server.baseUrl, download, auth) }
    } finally {
      load.stop()
    }
    console.log(`${SLOW_CONNECTIONS} connections sending one byte per second; ${CONNECTIONS} connections measured for ${DURATION_SECONDS} s per route:`)
    for (const route of ["healthz", "download"] as const) {
      const label = route === "healthz" ? "GET /healthz" : "GET …/download-url"
      const before = quiet[route]
      const after = loaded[route]
      console.log(
        `  ${label.padEnd(22)} p99 ${String(after.p99).padStart(4)} ms under load vs ${String(before.p99).padStart(4)} ms without ` +
          `(${(after.p99 / Math.max(1, before.p99)).toFixed(2)}×; rate ${after.rate.toFixed(0)} vs ${before.rate.toFixed(0)} req/s)` +
          `  goal p99 ≤ 100 ms: ${after.p99 <= 100 ? "met" : "NOT met"}`,
      )
    }
  } finally {
    await server.stop()
  }
}
