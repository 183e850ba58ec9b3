import { assert, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { ApiKey } from "../../domain/credentials/ApiKey.ts"
import { ApiKeyStore } from "../../ports/ApiKeyStore.ts"
import { unique } from "../support/fixtures.ts"

const T0 = new Date("2026-06-01T08:00:00.123Z")
const plusSeconds = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000)
const hexOf = (seed: string) => Array.from({ length: 64 }, (_, i) => "0123456789abcdef"[(seed.charCodeAt(i % seed.length) + i) % 16]).join("")

const aKey = (ownerId: string, overrides: Partial<ApiKey> = {}): ApiKey => {
  const id = unique("key_")
  return {
    id,
    ownerId,
    name: "CI ☃ key",
    prefix: "pckg_AbCdEfGh",
    keyHash: hexOf(id),
    games: ["gm_1", "gm_2"],
    scopes: ["release", "read"],
    createdAt: T0,
    expiresAt: plusSeconds(T0, 90 * 86400),
    revokedAt: null,
    lastUsedAt: null,
    ...overrides,
  }
}

/** What the suites pass as the limit where they do not test it. */
const LIMIT = 50

const byHash = (keyHash: string) => Effect.map(ApiKeyStore.use((store) => store.findByHash(keyHash)), Option.getOrNull)

export const apiKeyStoreContract = (name: string, makeLayer: () => Layer.Layer<ApiKeyStore, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`ApiKeyStore contract: ${name}`, (it) => {
    it.effect("create stores the key exactly (games as a list or 'all', scopes, times to the millisecond); unknown hashes are none", () =>
      Effect.gen(function*() {
        const store = yield* ApiKeyStore
        const listed = aKey(unique("ann-"))
        const everything = aKey(unique("bob-"), { games: "all", scopes: ["submit"], expiresAt: null })
        assert.isTrue(yield* store.create(listed, LIMIT))
        assert.isTrue(yield* store.create(everything, LIMIT))
        assert.deepStrictEqual(yield* byHash(listed.keyHash), listed)
        assert.deepStrictEqual(yield* byHash(everything.keyHash), everything)
        assert.isNull(yield* byHash("0".repeat(64)))
      }))

    it.effect("listByOwner gives exactly that owner's keys (case and spaces count), newest first, revoked ones included", () =>
      Effect.gen(function*() {
        const store = yield* ApiKeyStore
        const owner = unique("carol-")
        const older = aKey(owner)
        const newer = aKey(owner, { createdAt: plusSeconds(T0, 5) })
        for (const key of [older, newer, aKey(owner.toUpperCase()), aKey(`${owner} `)]) assert.isTrue(yield* store.create(key, LIMIT))
        assert.isTrue(yield* store.revoke(owner, older.id, plusSeconds(T0, 9)))
        const listed = yield* store.listByOwner(owner)
        assert.deepStrictEqual(listed.map((key) => key.id), [newer.id, older.id])
        assert.strictEqual(listed[1]!.revokedAt?.toISOString(), plusSeconds(T0, 9).toISOString())
        assert.deepStrictEqual(yield* store.listByOwner(unique("nobody-")), [])
      }))

    it.effect("revoke: true once for the owner; false again, for another owner, or an unknown id", () =>
      Effect.gen(function*() {
        const store = yield* ApiKeyStore
        const owner = unique("dave-")
        const key = aKey(owner)
        assert.isTrue(yield* store.create(key, LIMIT))
        assert.isFalse(yield* store.revoke(unique("eve-"), key.id, T0), "someone else's key")
        assert.isNull((yield* byHash(key.keyHash))!.revokedAt)
        assert.isTrue(yield* store.revoke(owner, key.id, plusSeconds(T0, 1)))
        assert.isFalse(yield* store.revoke(owner, key.id, plusSeconds(T0, 2)))
        assert.isFalse(yield* store.revoke(owner, unique("key_"), T0))
        assert.strictEqual((yield* byHash(key.keyHash))!.revokedAt?.toISOString(), plusSeconds(T0, 1).toISOString())
      }))

    it.effect("touch sets lastUsedAt, and leaves it when it is already at or after unlessSince", () =>
      Effect.gen(function*() {
        const store = yield* ApiKeyStore
        const key = aKey(unique("frank-"))
        assert.isTrue(yield* store.create(key, LIMIT))
        yield* store.touch(key.id, plusSeconds(T0, 100), plusSeconds(T0, 40))
        assert.strictEqual((yield* byHash(key.keyHash))!.lastUsedAt?.toISOString(), plusSeconds(T0, 100).toISOString())
        yield* store.touch(key.id, plusSeconds(T0, 130), plusSeconds(T0, 70))
        assert.strictEqual((yield* byHash(key.keyHash))!.lastUsedAt?.toISOString(), plusSeconds(T0, 100).toISOString(), "used within the minute")
        yield* store.touch(key.id, plusSeconds(T0, 200), plusSeconds(T0, 140))
        assert.strictEqual((yield* byHash(key.keyHash))!.lastUsedAt?.toISOString(), plusSeconds(T0, 200).toISOString())
        yield* store.touch(unique("key_"), T0, T0)
      }))

    it.effect("create stops at the limit of live keys even when creations race from zero (several owners, so a lost race shows)", () =>
      Effect.gen(function*() {
        const store = yield* ApiKeyStore
        for (const owner of [unique("racer-"), unique("racer-"), unique("racer-")]) {
          const raced = yield* Effect.all(Array.from({ length: 8 }, () => store.create(aKey(owner), 5)), { concurrency: "unbounded" })
          assert.strictEqual(raced.filter(Boolean).length, 5, owner)
          assert.strictEqual((yield* store.listByOwner(owner)).length, 5, owner)
        }
      }))

    it.effect("create counts only the owner's live keys: revoked ones, ones expired at the new key's creation and others' do not count", () =>
      Effect.gen(function*() {
        const store = yield* ApiKeyStore
        const owner = unique("gina-")
        const revoked = aKey(owner)
        assert.isTrue(yield* store.create(revoked, 2))
        assert.isTrue(yield* store.revoke(owner, revoked.id, plusSeconds(T0, 1)))
        assert.isTrue(yield* store.create(aKey(owner, { expiresAt: plusSeconds(T0, 10) }), 2))
        assert.isTrue(yield* store.create(aKey(owner.toUpperCase()), 2), "another owner (case counts)")
        const later = plusSeconds(T0, 10)
        assert.isTrue(yield* store.create(aKey(owner, { createdAt: later }), 2), "the first key expired when this one is created")
        assert.isTrue(yield* store.create(aKey(owner, { createdAt: later, expiresAt: null }), 2))
        const refused = aKey(owner, { createdAt: later })
        assert.isFalse(yield* store.create(refused, 2))
        assert.isNull(yield* byHash(refused.keyHash), "nothing written")
        assert.strictEqual((yield* store.listByOwner(owner)).length, 4)
      }))
  })
