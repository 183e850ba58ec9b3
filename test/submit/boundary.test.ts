import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type Outcome, type Part, repeated, sendMultipart } from "../support/multipart.ts"
import { type RunningServer, startServer } from "../support/server.ts"

// The multipart limit is on the `pck` part: at most 2 GiB (2,147,483,648 bytes) inclusive. The bodies are streamed,
// never held in memory, on either side.

const GIB = 2 ** 30
const LIMIT = 2 * GIB
const CHUNK = new Uint8Array(1 << 20)
const MANIFEST = JSON.stringify({ id: "boundary", name: "Boundary", version: "1.0.0", engine_sdk: "1", entry_scene: "res://main.tscn", min_players: 1, max_players: 2 })

const rss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024

/** A pck part of `size` zero bytes, produced a MiB at a time. */
const zeros = (size: number): Part => ({
  name: "pck",
  filename: "big.pck",
  size,
  body: function*() {
    yield* repeated(CHUNK, Math.floor(size / CHUNK.length))
    if (size % CHUNK.length > 0) yield CHUNK.subarray(0, size % CHUNK.length)
  },
})

describe("the 2 GiB boundary of the multipart path, streamed", () => {
  let server: RunningServer
  let url: string
  let headers: Record<string, string>
  let peak = 0
  let idle = 0
  let sampler: ReturnType<typeof setInterval>
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_COUNT: "100" } })
    url = `${server.baseUrl}/submit-api/games/submit`
    headers = { authorization: `Bearer ${server.token("big-uploader")}` }
    idle = rss(server.process.pid!)
    sampler = setInterval(() => (peak = Math.max(peak, rss(server.process.pid!))), 50)
  })
  afterAll(async () => {
    clearInterval(sampler)
    await server.stop()
  })

  const leftovers = () => ["incoming", join("objects", "tmp"), join("objects", "releases")].flatMap((d) => {
    try {
      return readdirSync(join(server.dataDir, "storage", d))
    } catch {
      return []
    }
  })

  test("exactly 2 GiB passes the size gate (the scanner then refuses the zeros), and nothing is kept", async () => {
    const outcome = await sendMultipart(url, [{ name: "manifest", body: MANIFEST }, zeros(LIMIT)], { headers })
    expect(outcome).toMatchObject({ kind: "answered", status: 422, body: { ok: false, error: "Static analysis failed" } })
    const violations = (outcome as Extract<Outcome, { kind: "answered" }>).body.violations
    expect(violations).toContainEqual(expect.objectContaining({ rule: "pack-not-godot" }))
    expect(violations).not.toContainEqual(expect.objectContaining({ rule: "pack-size" }))
    expect(leftovers()).toEqual([])
  })

  test("one byte more is 413: the server stops reading and keeps nothing (retried, as an early answer may reset)", async () => {
    const answers: Array<number> = []
    for (let attempt = 0; attempt < 3 && !answers.includes(413); attempt++) {
      const outcome = await sendMultipart(url, [{ name: "manifest", body: MANIFEST }, zeros(LIMIT + 1)], { headers })
      if (outcome.kind === "answered") {
        answers.push(outcome.status)
        expect(outcome.body).toMatchObject({ ok: false, error: "artifact_too_large" })
      }
    }
    expect(answers).toContain(413)
    expect(answers.every((s) => s === 413)).toBe(true)
    const deadline = Date.now() + 10_000
    while (leftovers().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(leftovers()).toEqual([])
  })

  test("a Content-Length that cannot fit is refused before any byte is read", async () => {
    const answers: Array<number> = []
    for (let attempt = 0; attempt < 3 && answers.length === 0; attempt++) {
      const outcome = await sendMultipart(url, [{ name: "manifest", body: MANIFEST }, zeros(1024)], { headers, contentLength: 3 * GIB })
      if (outcome.kind === "answered") answers.push(outcome.status)
    }
    expect(answers).toEqual([413])
  })

  test("the server's memory did not grow with the bodies", () => {
    expect((peak - idle) / 2 ** 20).toBeLessThan(150)
  })
})
