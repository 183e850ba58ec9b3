// Issue 6 goal: a 2 GB multipart upload through the running server, at least 50% of the throughput of writing the same
// bytes with `dd bs=4M conv=fsync`, with the server's peak RSS under 200 MB. Interleaved runs, medians.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startServer } from "../test/support/server.ts"
import { median, mib, peakRssDuring, ratio, requireTool, rssOf, timeAsync, timeCommand } from "./support/measure.ts"

const SIZE = 2 * 2 ** 30
const RUNS = Number(process.env["BENCH_RUNS"] ?? 3)
/**
 * Each timed run starts from a quiet disk: the previous run's writes flushed and its deletion (the root file system is
 * mounted with `discard`) done, so neither run pays for the other's writeback.
 */
const settle = async () => {
  timeCommand("sync", [])
  await new Promise((resolve) => setTimeout(resolve, 2000))
}

const MANIFEST = JSON.stringify({ id: "bench", name: "Bench", version: "1.0.0", engine_sdk: "1", entry_scene: "res://m.tscn", min_players: 1, max_players: 2 })

export const run = async () => {
  for (const tool of ["dd", "curl"]) requireTool(tool)
  const dir = mkdtempSync(join(tmpdir(), "pckgate-bench-multipart-"))
  const file = join(dir, "big.pck")
  timeCommand("dd", ["if=/dev/urandom", `of=${file}`, "bs=4M", `count=${SIZE / (4 * 2 ** 20)}`, "status=none"])
  const server = await startServer({ env: { RATE_LIMIT_COUNT: "100000" } })
  try {
    const token = server.token("bench")
    const pid = server.process.pid!
    const idle = rssOf(pid)
    let peak = idle
    const upload: Array<number> = []
    const dd: Array<number> = []
    const ddDirect: Array<number> = []
    const out = join(dir, "dd.out")
    const ddRun = (flags: ReadonlyArray<string>) => {
      const seconds = timeCommand("dd", [`if=${file}`, `of=${out}`, "bs=4M", ...flags, "status=none"])
      rmSync(out)
      return seconds
    }
    for (let i = 0; i < RUNS; i++) {
      await settle()
      dd.push(ddRun(["conv=fsync"]))
      await settle()
      // The same write around the page cache, as the server writes multipart uploads: the steadier of the two here.
      ddDirect.push(ddRun(["oflag=direct", "conv=fsync"]))
      await settle()
      // The body is streamed by curl; the server answers 422 (random bytes are no pack) after storing, hashing and
      // scanning them, and deletes what it stored.
      const measured = await peakRssDuring(pid, () =>
        timeAsync(async () =>
          timeCommand("curl", ["-s", "-o", "/dev/null", "-H", `authorization: Bearer ${token}`, "-F", `manifest=${MANIFEST}`, "-F", `pck=@${file}`, `${server.baseUrl}/submit-api/games/submit`])
        ))
      upload.push(measured.result)
      peak = Math.max(peak, measured.peak)
    }
    const [u, d, dDirect] = [median(upload), median(dd), median(ddDirect)]
    const rate = (seconds: number) => `${(SIZE / seconds / 2 ** 20).toFixed(0)} MiB/s`
    console.log(`2 GiB multipart upload, ${RUNS} interleaved runs, medians:`)
    console.log(`  through the server (curl -F, stored, hashed, scanned)  ${u.toFixed(1)} s, ${rate(u)}`)
    console.log(`  dd bs=4M conv=fsync of the same bytes                   ${d.toFixed(1)} s, ${rate(d)}`)
    console.log(`  dd bs=4M oflag=direct conv=fsync                        ${dDirect.toFixed(1)} s, ${rate(dDirect)}`)
    const runs = (times: ReadonlyArray<number>) => times.map((t) => t.toFixed(1)).join(" ")
    console.log(`  throughput ${ratio(d, u)} of dd (goal ≥ 0.50×), ${ratio(dDirect, u)} of dd oflag=direct; runs (s): server ${runs(upload)}, dd ${runs(dd)}, dd direct ${runs(ddDirect)}`)
    console.log(`  server RSS: idle ${mib(idle)}, peak ${mib(peak)} (goal < 200 MB)`)
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
    rmSync(server.dataDir, { recursive: true, force: true })
  }
}
