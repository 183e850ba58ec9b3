import { Effect, Layer } from "effect"
import { describe, expect, test } from "vitest"
import { StorageNotConfigured, Unavailable } from "../../domain/errors.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { GameViews } from "../../ports/GameViews.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { artifact } from "../support/api.ts"
import { makeTestApp, newGame } from "../support/testApp.ts"
import { CatalogPages } from "../../adapters/cache/CatalogPages.ts"

// Faulty adapters: the same ports, failing the way a real outage does. They replace the memory ones in the app.
const databaseDown = () => Effect.fail(new Unavailable({ dependency: "database", reason: "connect ECONNREFUSED 127.0.0.1:3306" }))
const storageDown = () => Effect.fail(new Unavailable({ dependency: "storage", reason: "disk I/O error" }))

const downGameStore = Layer.succeed(GameStore, GameStore.of({
  insert: databaseDown, get: databaseDown, getMany: databaseDown, slugsStartingWith: databaseDown, listByOwner: databaseDown,
  findByManifestId: databaseDown,
}))

/** Storage whose every operation fails with `failure`. */
const brokenStorage = (failure: () => Effect.Effect<never, Unavailable | StorageNotConfigured>) =>
  Layer.succeed(ObjectStorage, ObjectStorage.of({
    presignPut: failure, presignGet: failure, head: failure, digest: failure, readRange: failure, read: failure, put: failure,
    move: failure, delete: failure, list: failure, removeAbandonedWrites: failure,
  }))

describe("a failing dependency answers the endpoint's documented code, never a 500, and never leaks the cause", () => {
  test("database down: create → 502 create_failed; reads → 503 service_unavailable", async () => {
    const t = await makeTestApp({ override: downGameStore })
    const token = await t.token("alice")
    const created = await t.api.createGame(token, { name: "Down" })
    expect([created.status, created.body.error]).toEqual([502, "create_failed"])
    expect(created.body.detail).not.toContain("ECONNREFUSED")
    const read = await t.api.call("GET", "/api/games/gm_x", { token })
    expect([read.status, read.body.error]).toEqual([503, "service_unavailable"])
    expect(t.logs.some((l) => l.msg === "dependency unavailable" && l.dependency === "database")).toBe(true)
    await t.dispose()
  })

  test("storage failing: upload-url → 502 upload_url_failed; finalize → 502 finalize_failed", async () => {
    const t = await makeTestApp({ override: brokenStorage(storageDown) })
    const token = await t.token("alice")
    const gameId = await newGame(t, token)
    const pck = artifact(2048)
    const presign = await t.api.uploadUrl(token, gameId, pck.declaration)
    expect([presign.status, presign.body.error]).toEqual([502, "upload_url_failed"])
    const finalize = await t.api.finalize(token, gameId, pck.declaration)
    expect([finalize.status, finalize.body.error]).toEqual([409, "no_upload_intent"])
    await t.dispose()
  })

  test("storage not configured: 503 storage_not_configured", async () => {
    const t = await makeTestApp({ override: brokenStorage(() => Effect.fail(new StorageNotConfigured({ reason: "GCS_BUCKET is not set" }))) })
    const token = await t.token("alice")
    const gameId = await newGame(t, token)
    const presign = await t.api.uploadUrl(token, gameId, artifact(2048).declaration)
    expect([presign.status, presign.body.error]).toEqual([503, "storage_not_configured"])
    expect(presign.body.detail).toContain("GCS_BUCKET")
    await t.dispose()
  })

  test("a bug (a defect) is 500 internal with a request id, and its message stays in the log", async () => {
    const buggy = Layer.succeed(ReleaseStore, ReleaseStore.of({
      recordIntent: () => Effect.die(new Error("secret internal detail")),
      findIntent: () => Effect.die(new Error("secret internal detail")),
      finalize: () => Effect.die(new Error("secret internal detail")),
      get: () => Effect.succeed({ _tag: "None" } as never),
      listByGame: () => Effect.die(new Error("secret internal detail")),
      listPending: () => Effect.die(new Error("secret internal detail")),
      listApproved: () => Effect.die(new Error("secret internal detail")),
      lifecycle: () => Effect.die(new Error("secret internal detail")),
      takeLifecycleLease: () => Effect.die(new Error("secret internal detail")),
      renewLifecycleLease: () => Effect.die(new Error("secret internal detail")),
      dropLifecycleLease: () => Effect.die(new Error("secret internal detail")),
      activeVersion: () => Effect.die(new Error("secret internal detail")),
      recentDecisions: () => Effect.die(new Error("secret internal detail")),
      review: () => Effect.die(new Error("secret internal detail")),
      deleteExpiredIntents: () => Effect.die(new Error("secret internal detail")),
      keysInUse: () => Effect.die(new Error("secret internal detail")),
    }))
    const buggyViews = Layer.succeed(GameViews, GameViews.of({
      view: () => Effect.die(new Error("secret internal detail")),
      listActive: () => Effect.die(new Error("secret internal detail")),
    }))
    const buggyCatalog = Layer.succeed(CatalogPages, CatalogPages.of({ page: () => Effect.die(new Error("secret internal detail")) }))
    const t = await makeTestApp({ override: Layer.mergeAll(buggy, buggyViews, buggyCatalog) })
    const reply = await t.api.call("GET", "/api/catalog")
    expect([reply.status, reply.body.error]).toEqual([500, "internal"])
    expect(reply.body.detail).not.toContain("secret")
    expect(reply.body.detail).toContain(reply.headers.get("x-request-id")!)
    expect(JSON.stringify(t.logs)).toContain("secret internal detail")
    await t.dispose()
  })

  test("finalize with storage failing midway: 502 finalize_failed, no release, and the budget refunded", async () => {
    const t = await makeTestApp({ budget: { count: 1, windowSeconds: 3600 }, wrapStorage: (s) => ({ ...s, digest: storageDown }) })
    const owner = await t.token("alice")
    const gameId = await newGame(t, owner)
    const pck = artifact(2048)
    const presigned = await t.api.uploadUrl(owner, gameId, pck.declaration)
    expect((await t.api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(200)
    for (let attempt = 0; attempt < 2; attempt++) {
      const reply = await t.api.finalize(owner, gameId, pck.declaration)
      expect([reply.status, reply.body.error]).toEqual([502, "finalize_failed"])
    }
    expect((await t.api.call("GET", `/api/games/${gameId}/releases/1.0.0`, { token: owner })).status).toBe(404)
    await t.dispose()
  })
})
