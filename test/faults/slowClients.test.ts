import { readdirSync } from "node:fs"
import { connect, type Socket } from "node:net"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { apiClient } from "../support/api.ts"
import { type RunningServer, startServer } from "../support/server.ts"

// Issue 12: slow clients must not hold the server. Every body has an idle timeout (answered 408 in the endpoint's
// shape, then the connection is closed and any temporary file removed); small bodies must arrive within it in all;
// connections are capped; an account runs a bounded number of uploads at once. Real server, raw sockets.

interface RawAnswer {
  readonly status: number
  readonly body: any
  readonly headers: string
  /** The server closed the connection after answering. */
  readonly closed: boolean
}

/** Sends `head` and the first body bytes, then nothing more (or `trickle` one byte per interval); resolves with the answer. */
const stalledRequest = (baseUrl: string, head: string, firstBytes: string, trickleMs?: number) =>
  new Promise<RawAnswer>((resolve, reject) => {
    const url = new URL(baseUrl)
    const socket = connect(Number(url.port), url.hostname)
    let text = ""
    let trickle: ReturnType<typeof setInterval> | undefined
    socket.on("connect", () => {
      socket.write(head + firstBytes)
      if (trickleMs !== undefined) trickle = setInterval(() => socket.write(" "), trickleMs)
    })
    socket.setEncoding("utf8")
    socket.on("data", (d: string) => (text += d))
    socket.on("error", () => undefined)
    socket.on("close", () => {
      clearInterval(trickle)
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text)
      if (match === null) return reject(new Error(`no answer before the connection closed: ${JSON.stringify(text)}`))
      const split = text.indexOf("\r\n\r\n")
      const rawBody = text.slice(split + 4)
      // A chunked body: take the JSON between the chunk sizes.
      const json = rawBody.slice(rawBody.indexOf("{"), rawBody.lastIndexOf("}") + 1)
      resolve({ status: Number(match[1]), headers: text.slice(0, split).toLowerCase(), body: json === "" ? null : JSON.parse(json), closed: true })
    })
  })

const partialFiles = (dataDir: string) => readdirSync(join(dataDir, "storage", "incoming")).filter((n) => n.endsWith(".part"))

describe("slow clients against the real server (1 s idle timeout, 4 s upload deadline)", () => {
  let server: RunningServer
  let creator: string
  let gameId: string
  let host: string
  beforeAll(async () => {
    server = await startServer({
      env: {
        UPLOAD_IDLE_TIMEOUT_SECONDS: "1",
        UPLOAD_DEADLINE_SECONDS: "4",
        RATE_LIMIT_COUNT: "1000",
        MAX_UPLOADS_PER_ACCOUNT: "2",
        MAX_CONNECTIONS: "40",
      },
    })
    creator = server.token("slowpoke")
    host = new URL(server.baseUrl).host
    gameId = (await apiClient(server.baseUrl).createGame(creator, { name: "Slow Game" })).body.gameId
  })
  afterAll(async () => {
    await server?.stop()
  })

  test("a presigned PUT that stalls after 10 bytes → 408 RequestTimeout, connection closed, no temporary file left", async () => {
    const upload = await apiClient(server.baseUrl).uploadUrl(creator, gameId, { version: "1.0.0", sha256: "b".repeat(64), sizeBytes: 4096 })
    const url = new URL(upload.body.uploadUrl)
    const headers = Object.entries(upload.body.headers as Record<string, string>).map(([k, v]) => `${k}: ${v}\r\n`).join("")
    const answer = await stalledRequest(server.baseUrl, `PUT ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${host}\r\n${headers}content-length: 4096\r\n\r\n`, "0123456789")
    expect([answer.status, answer.body.error]).toEqual([408, "RequestTimeout"])
    expect(answer.body.detail).toMatch(/stalled/)
    expect(answer.closed).toBe(true)
    expect(partialFiles(server.dataDir)).toEqual([])
  })

  test("a JSON body that stalls → 408 request_timeout and nothing is created", async () => {
    const body = JSON.stringify({ name: "Never Created" })
    const answer = await stalledRequest(
      server.baseUrl,
      `POST /api/games/engine HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${creator}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
      body.slice(0, 5),
    )
    expect([answer.status, answer.body.error]).toEqual([408, "request_timeout"])
    expect(answer.closed).toBe(true)
    const mine = await apiClient(server.baseUrl).call("GET", "/api/me/games", { token: creator })
    expect(mine.body.games.map((g: { name: string }) => g.name)).toEqual(["Slow Game"])
  })

  test("a JSON body that trickles a byte at a time is cut at its deadline (the idle period in all) → 408", async () => {
    const answer = await stalledRequest(
      server.baseUrl,
      `POST /api/games/engine HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${creator}\r\ncontent-type: application/json\r\ncontent-length: 60000\r\n\r\n`,
      "{",
      200,
    )
    expect([answer.status, answer.body.error]).toEqual([408, "request_timeout"])
    expect(answer.body.detail).toMatch(/longer than the server allows/)
  })

  test("a multipart upload that stalls → 408 upload_timeout in its envelope, no temporary file left", async () => {
    const boundary = "slowboundary"
    const start = `--${boundary}\r\nContent-Disposition: form-data; name="pck"; filename="game.pck"\r\n\r\nGDPC`
    const answer = await stalledRequest(
      server.baseUrl,
      `POST /submit-api/games/submit HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${creator}\r\ncontent-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: 100000\r\n\r\n`,
      start,
    )
    expect([answer.status, answer.body.ok, answer.body.error]).toEqual([408, false, "upload_timeout"])
    expect(partialFiles(server.dataDir)).toEqual([])
  })

  test("an account runs at most MAX_UPLOADS_PER_ACCOUNT uploads at once: the next answers 429 too_many_uploads; others are not affected", async () => {
    const boundary = "capboundary"
    const head = (token: string) =>
      `POST /submit-api/games/submit HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${token}\r\ncontent-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: 100000\r\n\r\n`
    const start = `--${boundary}\r\nContent-Disposition: form-data; name="pck"; filename="game.pck"\r\n\r\nGDPC`
    // Two uploads that trickle (each byte within the idle timeout) hold both of the creator's slots.
    const holding = [stalledRequest(server.baseUrl, head(creator), start, 300), stalledRequest(server.baseUrl, head(creator), start, 300)]
    await new Promise((r) => setTimeout(r, 300))
    const refused = await stalledRequest(server.baseUrl, head(creator), start)
    expect([refused.status, refused.body.ok, refused.body.error]).toEqual([429, false, "too_many_uploads"])
    expect(refused.headers).toMatch(/retry-after: \d+/)
    // Someone else's upload still runs (and times out normally, being a stalled one too).
    const other = await stalledRequest(server.baseUrl, head(server.token("bystander")), start)
    expect([other.status, other.body.error]).toEqual([408, "upload_timeout"])
    // The holders trickle within the idle timeout, so the upload deadline is what ends them.
    for (const held of await Promise.all(holding)) {
      expect([held.status, held.body.error]).toEqual([408, "upload_timeout"])
      expect(held.body.detail).toMatch(/longer than the server allows/)
    }
    expect(partialFiles(server.dataDir)).toEqual([])
  })

  test("presigned PUTs count against the game owner's uploads: the third at once → 429 TooManyUploads in the storage shape", async () => {
    const api = apiClient(server.baseUrl)
    const urls = await Promise.all(["2.0.0", "3.0.0", "4.0.0"].map(async (version) => {
      const upload = await api.uploadUrl(creator, gameId, { version, sha256: "c".repeat(64), sizeBytes: 4096 })
      const url = new URL(upload.body.uploadUrl)
      const headers = Object.entries(upload.body.headers as Record<string, string>).map(([k, v]) => `${k}: ${v}\r\n`).join("")
      return `PUT ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${host}\r\n${headers}content-length: 4096\r\n\r\n`
    }))
    const holding = urls.slice(0, 2).map((head) => stalledRequest(server.baseUrl, head, "x", 300))
    await new Promise((r) => setTimeout(r, 300))
    const refused = await stalledRequest(server.baseUrl, urls[2]!, "x")
    expect([refused.status, refused.body.error]).toEqual([429, "TooManyUploads"])
    expect(refused.headers).toMatch(/retry-after: \d+/)
    for (const held of await Promise.all(holding)) expect([held.status, held.body.error]).toEqual([408, "RequestTimeout"])
    expect(partialFiles(server.dataDir)).toEqual([])
  })

  test("connections beyond MAX_CONNECTIONS are refused at once; the server keeps answering the others", async () => {
    const url = new URL(server.baseUrl)
    const open: Array<Socket> = []
    for (let i = 0; i < 40; i++) {
      const socket = connect(Number(url.port), url.hostname)
      socket.on("error", () => undefined)
      await new Promise((r) => socket.once("connect", r))
      open.push(socket)
    }
    // One more: the server closes it without reading a request.
    const extra = connect(Number(url.port), url.hostname)
    extra.on("error", () => undefined)
    const closed = await new Promise<boolean>((resolve) => {
      extra.once("close", () => resolve(true))
      setTimeout(() => resolve(false), 5000)
    })
    expect(closed).toBe(true)
    for (const socket of open) socket.destroy()
    await new Promise((r) => setTimeout(r, 200))
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200)
  })
})
