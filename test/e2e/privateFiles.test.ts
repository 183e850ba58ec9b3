import { readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { apiClient, artifact } from "../support/api.ts"
import { startServer } from "../support/server.ts"

// Issue 12: the records, their WAL, the objects, the keys and every folder the service creates are private to its
// user (0600 / 0700), whatever the umask of whoever starts it; every answer says `nosniff`, and HSTS when the public
// address is https.

const modeOf = (path: string) => statSync(path).mode & 0o777

const everything = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? [path, ...everything(path)] : [path]
  })

describe("files and answers of the real server", () => {
  test("every file it creates is 0600 and every folder 0700, the SQLite WAL and shared memory included", async () => {
    const previous = process.umask(0o022)
    let server
    try {
      server = await startServer()
    } finally {
      process.umask(previous)
    }
    try {
      const api = apiClient(server.baseUrl)
      const creator = server.token("private-person")
      const gameId: string = (await api.createGame(creator, { name: "Private" })).body.gameId
      expect((await api.uploadRelease(creator, gameId, artifact(4096))).status).toBe(201)

      const paths = everything(server.dataDir)
      const names = paths.map((p) => p.slice(server.dataDir.length))
      expect(names).toEqual(expect.arrayContaining(["/pckgate.sqlite", "/pckgate.sqlite-wal", "/pckgate.sqlite-shm", "/keys"]))
      expect(names.some((n) => n.endsWith(".pck"))).toBe(true)
      expect(modeOf(server.dataDir)).toBe(0o700)
      const wrong = paths.filter((p) => modeOf(p) !== (statSync(p).isDirectory() ? 0o700 : 0o600)).map((p) => [p, modeOf(p).toString(8)])
      expect(wrong).toEqual([])
    } finally {
      await server.stop()
    }
  })

  test("JSON and storage answers carry nosniff; HSTS only when BASE_URL is https", async () => {
    const plain = await startServer()
    try {
      const api = apiClient(plain.baseUrl)
      const health = await fetch(`${plain.baseUrl}/healthz`)
      expect(health.headers.get("x-content-type-options")).toBe("nosniff")
      expect(health.headers.get("strict-transport-security")).toBeNull()
      const creator = plain.token("sniffer")
      const gameId: string = (await api.createGame(creator, { name: "Headers" })).body.gameId
      const pck = artifact(2048)
      const presigned = await api.uploadUrl(creator, gameId, pck.declaration)
      const put = await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)
      expect([put.status, put.headers.get("x-content-type-options")]).toEqual([200, "nosniff"])
      const refused = await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)
      expect([refused.status, refused.headers.get("x-content-type-options")]).toEqual([412, "nosniff"])
    } finally {
      await plain.stop()
    }
    const secure = await startServer({ env: { BASE_URL: "https://store.example" } })
    try {
      const address = /listening on (\S+) /.exec(secure.output())![1]!
      const health = await fetch(`${address}/healthz`)
      expect(health.headers.get("strict-transport-security")).toMatch(/^max-age=\d+/)
      expect(health.headers.get("x-content-type-options")).toBe("nosniff")
    } finally {
      await secure.stop()
    }
  })
})
