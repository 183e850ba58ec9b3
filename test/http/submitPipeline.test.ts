import { Effect } from "effect"
import { afterEach, describe, expect, test } from "vitest"
import { Unavailable } from "../../domain/errors.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ObjectStorage, StorageFull } from "../../ports/ObjectStorage.ts"
import { makeTestApp, type TestApp, type TestAppOptions, TEST_BASE_URL } from "../support/testApp.ts"

// The multipart pipeline through the app's fetch (Node and Deno): what is refused before the body is read, what a
// storage failure answers while the client is still sending, and that a slow store is not blamed on the client.
// Bodies here are streams the test controls: one that never ends proves the answer did not wait for it.

const encoder = new TextEncoder()
const BOUNDARY = "pipeline-boundary-5e1d"
const CHUNK = new Uint8Array(64 * 1024)
const MANIFEST = JSON.stringify({ id: "pipeline", name: "Pipeline", version: "1.0.0", engine_sdk: "1", entry_scene: "res://a.tscn", min_players: 1, max_players: 2 })

const fieldPart = (name: string, value: string) => encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
const pckHeader = (filename = "game.pck") =>
  encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="pck"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`)
const CLOSING = encoder.encode(`\r\n--${BOUNDARY}--\r\n`)

interface Body {
  readonly stream: ReadableStream<Uint8Array>
  /** Resolves once the server let go of the body (read to its end, or cancelled). */
  readonly released: Promise<void>
}

/** `head`, then `pckChunks` chunks of zeros, then (unless `stallAfter`) the closing boundary; pulled as the server reads. */
const body = (head: ReadonlyArray<Uint8Array>, pckChunks: number, options: { readonly stallAfter?: number } = {}): Body => {
  const queue = [...head]
  let sent = 0
  let release: () => void = () => undefined
  const released = new Promise<void>((resolve) => (release = resolve))
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift()
      if (next !== undefined) return controller.enqueue(next)
      if (options.stallAfter !== undefined && sent >= options.stallAfter) return new Promise<void>(() => undefined)
      if (sent < pckChunks) {
        sent++
        return controller.enqueue(CHUNK)
      }
      if (sent === pckChunks) {
        sent++
        return controller.enqueue(CLOSING)
      }
      controller.close()
      release()
    },
    cancel: () => release(),
  })
  return { stream, released }
}

const post = (t: TestApp, token: string, bodyStream: ReadableStream<Uint8Array>) =>
  t.app.fetch(new Request(`${TEST_BASE_URL}/submit-api/games/submit`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body: bodyStream,
    duplex: "half",
  } as RequestInit))

const stored = (t: TestApp) =>
  t.runtime.runPromise(Effect.gen(function*() {
    const objects = yield* ObjectStorage.use((s) => s.list(""))
    const games = yield* GameStore.use((g) => g.listByOwner("piper"))
    return { objects: objects.map((o) => o.key), games: games.length }
  }))

describe("the multipart pipeline", () => {
  let t: TestApp | null = null
  const app = async (options: TestAppOptions) => {
    t = await makeTestApp(options)
    return { t, token: await t.token("piper") }
  }
  afterEach(async () => {
    await t?.dispose()
    t = null
  })

  test("a manifest refused before the package is read: answered 400 while the client still holds the package, nothing kept", async () => {
    const { t, token } = await app({})
    const sent = body([fieldPart("manifest", '{"id": "x"'), pckHeader()], 64, { stallAfter: 4 })
    const reply = await post(t, token, sent.stream)
    expect([reply.status, (await reply.json()).error]).toEqual([400, "Invalid manifest. Required: id, name, version, engine_sdk, entry_scene, min_players, max_players"])
    await sent.released
    expect(await stored(t)).toEqual({ objects: [], games: 0 })
  })

  test("budget before body: a spent submit budget answers 429 without reading the body", async () => {
    const { t, token } = await app({ budget: { count: 0, windowSeconds: 3600 } })
    const sent = body([fieldPart("manifest", MANIFEST), pckHeader()], 64, { stallAfter: 0 })
    const reply = await post(t, token, sent.stream)
    expect([reply.status, (await reply.json()).error]).toEqual([429, "rate_limited"])
    await sent.stream.cancel()
    expect(await stored(t)).toEqual({ objects: [], games: 0 })
  })

  test.each([
    { name: "a full store", failure: () => new StorageFull({ key: "tmp/x" }), status: 507, error: "insufficient_storage" },
    { name: "any other storage failure", failure: () => new Unavailable({ dependency: "storage", reason: "EIO" }), status: 503, error: "service_unavailable" },
  ])("$name while the package streams in is answered at once ($status), the client still sending; nothing kept", async ({ failure, status, error }) => {
    // The store takes a little of the body, then fails; the client sends 4 MiB, then waits for the answer.
    const { t, token } = await app({
      wrapStorage: (storage) => ({
        ...storage,
        put: (key, bytes, options) =>
          key.startsWith("tmp/")
            ? Effect.promise(async () => {
              const reader = bytes.getReader()
              await reader.read()
              await reader.cancel()
            }).pipe(Effect.andThen(Effect.fail(failure())))
            : storage.put(key, bytes, options),
      }),
    })
    const sent = body([fieldPart("manifest", MANIFEST), pckHeader()], 1024, { stallAfter: 64 })
    const reply = await post(t, token, sent.stream)
    expect(await reply.json()).toMatchObject({ ok: false, error })
    expect(reply.status).toBe(status)
    await sent.released
    expect(await stored(t)).toEqual({ objects: [], games: 0 })
  })

  test("a slow store holds the body back without tripping the client's idle timeout", async () => {
    // The store starts reading only after three idle periods: the network side waits meanwhile, which is not the
    // client stalling. 8 MiB is more than every buffer between the socket and the store can hold.
    const { t, token } = await app({
      submissionLimits: { idleTimeoutMs: 1000 },
      wrapStorage: (storage) => ({
        ...storage,
        put: (key, bytes, options) =>
          Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 3000))).pipe(Effect.andThen(storage.put(key, bytes, options))),
      }),
    })
    const sent = body([fieldPart("manifest", MANIFEST), pckHeader()], 128)
    const reply = await post(t, token, sent.stream)
    // Zeros are no Godot pack: the scanner's refusal shows the whole body was stored and read.
    expect([reply.status, (await reply.json()).error]).toEqual([422, "Static analysis failed"])
    expect(await stored(t)).toEqual({ objects: [], games: 0 })
  })

  test("two 'pck' parts are refused, and the first one's object is removed", async () => {
    const { t, token } = await app({})
    const first = [pckHeader(), CHUNK, encoder.encode("\r\n")]
    const sent = body([fieldPart("manifest", MANIFEST), ...first, pckHeader("again.pck")], 2)
    const reply = await post(t, token, sent.stream)
    const answer = await reply.json()
    expect([reply.status, answer.error]).toEqual([400, "invalid_request"])
    expect(answer.detail).toContain("more than one 'pck' part")
    expect(await stored(t)).toEqual({ objects: [], games: 0 })
  })
})
