import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { artifact } from "../support/api.ts"
import { makeTestApp, newGame, type TestApp } from "../support/testApp.ts"

describe("POST /api/games/{gameId}/releases/finalize", () => {
  let t: TestApp
  let owner: string
  let gameId: string
  beforeAll(async () => {
    t = await makeTestApp()
    owner = await t.token("owner")
    gameId = await newGame(t, owner)
  })
  afterAll(() => t.dispose())

  const objectAt = (version: string, sha256: string) =>
    t.runtime.runPromise(ObjectStorage.use((s) => s.head(`releases/${gameId}/${version}/${sha256}.pck`)).pipe(Effect.map(Option.isSome)))
  const upload = async (version: string, bytes?: Uint8Array) => {
    const pck = artifact(4096, version)
    const presigned = await t.api.uploadUrl(owner, gameId, pck.declaration)
    await t.api.put(presigned.body.uploadUrl, presigned.body.headers, bytes ?? pck.bytes)
    return { ...pck, presigned: presigned.body }
  }

  test("creates the release pending review, notifies the review queue, and consumes the intent", async () => {
    const pck = await upload("1.0.0")
    const finalized = await t.api.finalize(owner, gameId, pck.declaration)
    expect(finalized.status).toBe(201)
    expect(finalized.body).toEqual({ gameId, version: "1.0.0", sha256: pck.declaration.sha256, sizeBytes: 4096, status: "pending_review", createdAt: t.clock.current().toISOString() })
    expect(t.inbox.events.at(-1)).toMatchObject({ kind: "release_finalized", gameId, version: "1.0.0", sha256: pck.declaration.sha256 })
    const again = await t.api.finalize(owner, gameId, pck.declaration)
    expect([again.status, again.body.error]).toEqual([409, "version_exists"])
  })

  test("without a matching upload-url it is 409 no_upload_intent", async () => {
    const pck = await upload("2.0.0")
    for (const declaration of [
      { ...pck.declaration, sizeBytes: 4097 },
      { ...pck.declaration, sha256: "f".repeat(64) },
      { ...pck.declaration, version: "2.0.1" },
    ]) {
      const reply = await t.api.finalize(owner, gameId, declaration)
      expect([reply.status, reply.body.error]).toEqual([409, "no_upload_intent"])
      expect(reply.body.detail).toContain("upload-url")
    }
  })

  test("an intent stays valid for 24 hours although its URL expires after one", async () => {
    const pck = await upload("3.0.0")
    t.clock.advance(23 * 3600)
    expect((await t.api.finalize(owner, gameId, pck.declaration)).status).toBe(201)
    const late = await upload("3.0.1")
    t.clock.advance(24 * 3600 + 1)
    expect((await t.api.finalize(owner, gameId, late.declaration)).body.error).toBe("no_upload_intent")
  })

  test("when the PUT never landed it is 409 artifact_missing", async () => {
    const pck = artifact(4096, "4.0.0")
    await t.api.uploadUrl(owner, gameId, pck.declaration)
    const reply = await t.api.finalize(owner, gameId, pck.declaration)
    expect([reply.status, reply.body.error]).toEqual([409, "artifact_missing"])
  })

  test("a checksum mismatch is 400, deletes the stored object and writes no release", async () => {
    const pck = artifact(4096, "5.0.0")
    const wrong = pck.bytes.slice()
    wrong[0] = wrong[0]! ^ 1
    const presigned = await t.api.uploadUrl(owner, gameId, pck.declaration)
    await t.api.put(presigned.body.uploadUrl, presigned.body.headers, wrong)
    const reply = await t.api.finalize(owner, gameId, pck.declaration)
    expect([reply.status, reply.body.error]).toEqual([400, "checksum_mismatch"])
    expect(await objectAt("5.0.0", pck.declaration.sha256)).toBe(false)
    expect((await t.api.call("GET", `/api/games/${gameId}/releases/5.0.0`, { token: owner })).status).toBe(404)
  })

  test("a size mismatch is 400, deletes the stored object and writes no release", async () => {
    const pck = artifact(4096, "6.0.0")
    const presigned = await t.api.uploadUrl(owner, gameId, pck.declaration)
    await t.api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes.subarray(0, 4000))
    const reply = await t.api.finalize(owner, gameId, pck.declaration)
    expect([reply.status, reply.body.error]).toEqual([400, "size_mismatch"])
    expect(reply.body.detail).toContain("4000")
    expect(await objectAt("6.0.0", pck.declaration.sha256)).toBe(false)
  })

  test("two concurrent finalizes of one version: exactly one 201, the other 409 version_exists", async () => {
    const pck = await upload("8.0.0")
    const replies = await Promise.all([t.api.finalize(owner, gameId, pck.declaration), t.api.finalize(owner, gameId, pck.declaration)])
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409])
    expect(replies.find((r) => r.status === 409)!.body.error).toBe("version_exists")
  })

  test("someone else's game is 404, even with a valid declaration", async () => {
    const pck = await upload("9.0.0")
    const other = await t.token("other")
    const reply = await t.api.finalize(other, gameId, pck.declaration)
    expect([reply.status, reply.body.error]).toEqual([404, "game_not_found_or_forbidden"])
  })

  test("a stored object above 512 MiB is 413 artifact_too_large and is deleted", async () => {
    // A store that reports the object as oversized (as a bucket could hold one): the outcome is what matters.
    const big = await makeTestApp({ wrapStorage: (s) => ({ ...s, head: (key) => Effect.map(s.head(key), Option.map((o) => ({ ...o, sizeBytes: 536870913 }))) }) })
    const token = await big.token("owner")
    const game = await newGame(big, token)
    const pck = artifact(4096)
    const presigned = await big.api.uploadUrl(token, game, pck.declaration)
    await big.api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)
    const reply = await big.api.finalize(token, game, pck.declaration)
    expect([reply.status, reply.body.error]).toEqual([413, "artifact_too_large"])
    const remaining = await big.runtime.runPromise(ObjectStorage.use((s) => s.list("releases/")))
    expect(remaining).toEqual([])
    await big.dispose()
  })
})
