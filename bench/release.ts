// Issue 2 goals: finalize of 512 MiB ≤ 1.15× `openssl dgst -sha256`; PUT of 512 MiB into the embedded store ≤ 1.3×
// `dd bs=4M conv=fsync`; server RSS growth during both < 100 MB over idle. Interleaved runs, medians.
import { createHash } from "node:crypto"
import { mkdtempSync, openSync, readSync, rmSync, closeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { apiClient } from "../test/support/api.ts"
import { startServer } from "../test/support/server.ts"
import { median, mib, peakRssDuring, ratio, requireTool, rssOf, timeAsync, timeCommand } from "./support/measure.ts"

const SIZE = 512 * 2 ** 20
const RUNS = Number(process.env["BENCH_RUNS"] ?? 5)

const sha256OfFile = (path: string) => {
  const hash = createHash("sha256")
  const buffer = Buffer.allocUnsafe(4 * 2 ** 20)
  const fd = openSync(path, "r")
  for (let n; (n = readSync(fd, buffer)) > 0;) hash.update(buffer.subarray(0, n))
  closeSync(fd)
  return hash.digest("hex")
}

export const run = async () => {
  for (const tool of ["openssl", "dd", "curl"]) requireTool(tool)
  const dir = mkdtempSync(join(tmpdir(), "pckgate-bench-"))
  const file = join(dir, "artifact.pck")
  timeCommand("dd", ["if=/dev/urandom", `of=${file}`, "bs=4M", `count=${SIZE / (4 * 2 ** 20)}`, "status=none"])
  const sha256 = sha256OfFile(file)
  const server = await startServer({ env: { RATE_LIMIT_COUNT: "100000" } })
  try {
    const api = apiClient(server.baseUrl)
    const token = server.token("bench")
    const gameId = (await api.createGame(token, { name: "Bench" })).body.gameId as string
    const pid = server.process.pid!
    const idle = rssOf(pid)
    const times = { dd: [] as number[], openssl: [] as number[], put: [] as number[], finalize: [] as number[] }
    let peak = idle
    for (let i = 0; i < RUNS; i++) {
      const ddOut = join(dir, "dd.out")
      times.dd.push(timeCommand("dd", [`if=${file}`, `of=${ddOut}`, "bs=4M", "conv=fsync", "status=none"]))
      rmSync(ddOut)
      times.openssl.push(timeCommand("openssl", ["dgst", "-sha256", file]))
      const declaration = { version: `1.0.${i}`, sha256, sizeBytes: SIZE }
      const presigned = await api.uploadUrl(token, gameId, declaration)
      const headerArgs = Object.entries(presigned.body.headers as Record<string, string>).flatMap(([k, v]) => ["-H", `${k}: ${v}`])
      const put = await peakRssDuring(pid, () => timeAsync(async () => timeCommand("curl", ["-sf", "-T", file, ...headerArgs, presigned.body.uploadUrl])))
      const finalize = await peakRssDuring(pid, () => timeAsync(async () => {
        const reply = await api.finalize(token, gameId, declaration)
        if (reply.status !== 201) throw new Error(`finalize: ${JSON.stringify(reply.body)}`)
      }))
      times.put.push(put.result)
      times.finalize.push(finalize.result)
      peak = Math.max(peak, put.peak, finalize.peak)
    }
    const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) as Record<keyof typeof times, number>
    console.log(`512 MiB, ${RUNS} interleaved runs, medians:`)
    const met = (ok: boolean) => (ok ? "met" : "NOT met")
    console.log(`  finalize (re-hash of the stored object)  ${m.finalize.toFixed(2)} s  vs openssl dgst -sha256 ${m.openssl.toFixed(2)} s  → ${ratio(m.finalize, m.openssl)} (goal ≤ 1.15×: ${met(m.finalize <= 1.15 * m.openssl)})`)
    console.log(`  PUT into the embedded store (curl -T)    ${m.put.toFixed(2)} s  vs dd bs=4M conv=fsync   ${m.dd.toFixed(2)} s  → ${ratio(m.put, m.dd)} (goal ≤ 1.3×: ${met(m.put <= 1.3 * m.dd)})`)
    console.log(`  server RSS: idle ${mib(idle)}, peak ${mib(peak)}, growth ${mib(peak - idle)} (goal < 100 MB: ${met(peak - idle < 100e6)})`)
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
    rmSync(server.dataDir, { recursive: true, force: true })
  }
}
