// A stand-in for the service on loopback, answering from a table: for what the real server cannot do yet (paginate,
// answer codes of later issues) and for replies it would never send (malformed bodies, a cursor that loops).
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"

export interface FakeReply {
  readonly status: number
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>>
}

export interface FakeRequest {
  readonly method: string
  /** Path and query, as requested. */
  readonly url: string
  readonly body: Buffer
}

/** `"GET /api/me/games?cursor=p2"` → the reply (or a function of the request). Anything else: 404 not_found. */
export type FakeRoutes = Record<string, FakeReply | ((request: FakeRequest) => FakeReply)>

const read = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

export const startFakeService = async (routes: FakeRoutes) => {
  const server = createServer(async (request, response) => {
    const received: FakeRequest = { method: request.method ?? "GET", url: request.url ?? "/", body: await read(request) }
    const route = routes[`${received.method} ${received.url}`]
    const reply = route === undefined
      ? { status: 404, body: { error: "not_found", detail: `the fake service has no ${received.method} ${received.url}` } }
      : typeof route === "function"
      ? route(received)
      : route
    const text = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body)
    response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
    response.end(text)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export const TIMESTAMP = "2026-01-02T03:04:05.678Z"

/** A game as `GET /api/me/games` lists it (the wire Schema OwnerGame). */
export const ownerGame = (gameId: string, name: string) => ({
  gameId,
  name,
  slug: gameId.replace(/_/g, "-"),
  kind: "engine",
  ownerId: "creator",
  status: "review",
  activeVersion: null,
  createdAt: TIMESTAMP,
  updatedAt: TIMESTAMP,
  releases: [],
})

/** A pending release as `GET /api/admin/review-queue` lists it. */
export const queueItem = (gameId: string, version: string) => ({
  gameId,
  gameName: `Game ${gameId}`,
  slug: gameId,
  ownerId: "creator",
  version,
  sha256: "a".repeat(64),
  sizeBytes: 4096,
  source: "release_api",
  submittedAt: TIMESTAMP,
  waitingSeconds: 60,
  scan: { status: "scanned", errors: 0, warnings: 1 },
  capabilitiesAdded: ["network"],
  claimedBy: null,
  claimedUntil: null,
})
