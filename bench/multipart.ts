// Issue 6 goal: a 2 GB multipart upload through the running server, at least 50% of the throughput of writing the same
// bytes with `dd bs=4M conv=fsync`, with the server's peak RSS under 200 MB. Interleaved runs, medians.
//
// BENCH_MULTIPART_VARIANTS adds servers started with other settings, measured in the same interleaved runs: the figures
// that justify a speed option (docs/performance.md). Variants are separated by ';', the settings of one by ',', e.g.
// BENCH_MULTIPART_VARIANTS='STORAGE_DIRECT_WRITES=off'.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type RunningServer, startServer } from "../test/support/server.ts"
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

interface Variant {
  readonly label: string
  readonly env: Readonly<Record<string, string>>
}

const variants = (spec: string | undefined): ReadonlyArray<Variant> => [
  { label: "default settings", env: {} },
  ...(spec ?? "").split(";").map((v) => v.trim()).filter((v) => v !== "").map((v) => ({
    label: v,
    env: Object.fromEntries(v.split(",").map((setting) => {
      const [name, ...value] = setting.trim().split("=")
      return [name!, value.join("=")]
    })),
  })),
]

interface Measured {
  readonly variant: Variant
  readonly server: RunningServer
  readonly token: string
  readonly idle: number
  peak: number
  readonly seconds: Array<number>
}

export const run = async () => {
  for (const tool of ["dd", "curl"]) requireTool(tool)
  const dir = mkdtempSync(join(tmpdir(), "pckgate-bench-multipart-"))
  const file = join(dir, "big.pck")
  timeCommand("dd", ["if=/dev/urandom", `of=${file}`, "bs=4M", `count=${SIZE / (4 * 2 ** 20)}`, "status=none"])
  const servers: Array<Measured> = []
  try {
    for (const variant of variants(process.env["BENCH_MULTIPART_VARIANTS"])) {
      const server = await startServer({ env: { RATE_LIMIT_COUNT: "100000", ...variant.env } })
      servers.push({ variant, server, token: server.token("bench"), idle: rssOf(server.process.pid!), peak: 0, seconds: [] })
    }
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
      // Each run starts with the next variant, so the machine's drift favours none of them.
      for (let k = 0; k < servers.length; k++) {
        const s = servers[(i + k) % servers.length]!
        await settle()
        // The body is streamed by curl; the server answers 422 (random bytes are no pack) after storing, hashing and
        // scanning them, and deletes what it stored.
        const measured = await peakRssDuring(s.server.process.pid!, () =>
          timeAsync(async () =>
            timeCommand("curl", ["-s", "-o", "/dev/null", "-H", `authorization: Bearer ${s.token}`, "-F", `manifest=${MANIFEST}`, "-F", `pck=@${file}`, `${s.server.baseUrl}/submit-api/games/submit`])
          ))
        s.seconds.push(measured.result)
        s.peak = Math.max(s.peak, measured.peak)
      }
    }
    const [d, dDirect] = [median(dd), median(ddDirect)]
    const rate = (seconds: number) => `${(SIZE / seconds / 2 ** 20).toFixed(0)} MiB/s`
    const runs = (times: ReadonlyArray<number>) => times.map((t) => t.toFixed(1)).join(" ")
    console.log(`2 GiB multipart upload, ${RUNS} interleaved runs, medians:`)
    console.log(`  dd bs=4M conv=fsync of the same bytes                   ${d.toFixed(1)} s, ${rate(d)}; runs (s): ${runs(dd)}`)
    console.log(`  dd bs=4M oflag=direct conv=fsync                        ${dDirect.toFixed(1)} s, ${rate(dDirect)}; runs (s): ${runs(ddDirect)}`)
    for (const s of servers) {
      const u = median(s.seconds)
      console.log(`  through the server (curl -F, stored, hashed, scanned), ${s.variant.label}: ${u.toFixed(1)} s, ${rate(u)}; runs (s): ${runs(s.seconds)}`)
      console.log(`    throughput ${ratio(d, u)} of dd (goal ≥ 0.50×), ${ratio(dDirect, u)} of dd oflag=direct`)
      console.log(`    server RSS: idle ${mib(s.idle)}, peak ${mib(s.peak)} (goal < 200 MB)`)
    }
  } finally {
    for (const s of servers) {
      await s.server.stop()
      rmSync(s.server.dataDir, { recursive: true, force: true })
    }
    rmSync(dir, { recursive: true, force: true })
  }
}
