// Text from users through the HTTP app, on a given store (memory, SQLite, MariaDB): forbidden code points are refused
// with 400 naming field and code point, and nothing is stored; valid text is accepted and stored in NFC.
import { Effect, Layer, Option } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { GameStore } from "../../ports/GameStore.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { utf8 } from "../scanner/support/bytes.ts"
import { writePack } from "../scanner/support/packWriter.ts"
import { artifact, type Reply } from "./api.ts"
import { makeTestApp, newGame, release, TEST_BASE_URL, type TestApp } from "./testApp.ts"
import { label, validIdentifier, validName, validReason, type WithForbidden, withForbidden } from "./userTextArbitraries.ts"

const INVALID_MANIFEST = "Invalid manifest. Required: id, name, version, engine_sdk, entry_scene, min_players, max_players"

/** A 400 invalid_request (or the multipart's manifest error) whose detail names `field` with every inserted code point. */
const expectRefused = (reply: Reply, field: string, forbidden: ReadonlyArray<number>, error = "invalid_request") => {
  expect([reply.status, reply.body.error], JSON.stringify(reply.body)).toEqual([400, error])
  for (const cp of forbidden) expect(reply.body.detail).toContain(`${field}: contains ${label(cp)} (`)
}

const validSlug = fc.stringMatching(/^[a-z0-9]{1,12}(-[a-z0-9]{1,12}){0,2}$/)

/** A pack the scanner passes (a text scene whose root script extends EngineGame) carrying `manifest` verbatim. */
const cleanPack = (manifestText: string) =>
  writePack({
    format: 2,
    entries: [
      { path: "res://manifest.json", data: utf8(manifestText) },
      { path: "res://main.tscn", data: utf8('[gd_scene load_steps=2 format=3]\n[ext_resource type="Script" path="res://main.gd" id="1_a"]\n[node name="Main" type="Node2D"]\nscript = ExtResource("1_a")\n') },
      { path: "res://main.gd", data: utf8("extends EngineGame\n") },
    ],
  })

export interface UserTextSuiteOptions {
  /** Replaces the memory records (e.g. `layerSqlRecords`); none keeps the memory store. */
  readonly records?: () => Promise<Layer.Layer<GameStore | ReleaseStore, unknown>>
  /** Runs per property: fewer on a real database. */
  readonly runs: number
}

export const userTextSuite = (storeName: string, options: UserTextSuiteOptions) =>
  describe(`text from users through the HTTP app (${storeName})`, () => {
    let t: TestApp
    let admin: string
    beforeAll(async () => {
      t = await makeTestApp(options.records === undefined ? {} : { override: Layer.orDie(await options.records()) as Layer.Layer<never> })
      admin = await t.token("text-admin", { admin: true })
    })
    afterAll(() => t.dispose())
    const runs = options.runs

    const run = <A>(effect: Effect.Effect<A, unknown, GameStore | ReleaseStore | ObjectStorage>) => t.runtime.runPromise(effect as Effect.Effect<A>)
    /** Everything stored: every game (each has a slug), the releases of those games, every object. */
    const stored = () =>
      run(Effect.gen(function*() {
        const slugs = yield* GameStore.use((g) => g.slugsStartingWith(""))
        const pending = yield* ReleaseStore.use((r) => r.listPending())
        const objects = yield* ObjectStorage.use((s) => s.list(""))
        return { games: slugs.length, pending: pending.map((r) => `${r.gameId}/${r.version}/${r.rejectionReason}`).sort(), objects: objects.length }
      }))
    const storedGame = (id: string) => run(GameStore.use((g) => g.get(id))).then(Option.getOrThrow)
    const storedRelease = (gameId: string, version: string) => run(ReleaseStore.use((r) => r.get(gameId, version))).then(Option.getOrThrow)

    /** Sends each generated value; nothing at all may be stored by any of them. */
    const refusedWithoutTrace = async <T>(arbitrary: fc.Arbitrary<T>, send: (value: T) => Promise<void>) => {
      const before = await stored()
      await fc.assert(fc.asyncProperty(arbitrary, async (value) => {
        await send(value)
        expect(await stored()).toEqual(before)
      }), { numRuns: runs })
    }

    test("POST /api/games/engine: a name with a forbidden code point is 400 naming it; nothing is stored", async () => {
      const creator = await t.token("text-bad-names")
      await refusedWithoutTrace(withForbidden(validName, "single"), async ({ text, forbidden }) => {
        expectRefused(await t.api.createGame(creator, { name: text }), "name", forbidden)
      })
      expect((await t.api.call("GET", "/api/me/games", { token: creator })).body.games).toEqual([])
    })

    test("POST /api/games/engine: a slug with a forbidden code point is 400 naming the slug", async () => {
      const creator = await t.token("text-bad-slugs")
      await refusedWithoutTrace(withForbidden(validSlug, "single"), async ({ text, forbidden }) => {
        expectRefused(await t.api.createGame(creator, { name: "Fine Name", slug: text }), "slug", forbidden)
      })
    })

    test("POST /api/games/engine: valid names (emoji, combining marks, other scripts) are stored in NFC and read back equal", async () => {
      const creator = await t.token("text-good-names")
      let created = 0
      await fc.assert(fc.asyncProperty(validName, async (name) => {
        const nfc = name.normalize("NFC")
        const reply = await t.api.createGame(creator, { name })
        expect([reply.status, reply.body.name], JSON.stringify(reply.body)).toEqual([201, nfc])
        created++
        expect((await storedGame(reply.body.gameId)).name).toBe(nfc)
        expect((await t.api.call("GET", `/api/games/${reply.body.gameId}`, { token: creator })).body.name).toBe(nfc)
      }), { numRuns: runs })
      // One page holds them all (runs stay under the largest page).
      const mine = (await t.api.call("GET", "/api/me/games?limit=100", { token: creator })).body.games
      expect(mine).toHaveLength(created)
      expect(mine.every((g: { name: string }) => g.name === g.name.normalize("NFC"))).toBe(true)
    })

    test("POST /api/admin/games: forbidden code points in name or ownerId are 400 naming each; nothing is stored", async () => {
      const bad = (valid: fc.Arbitrary<string>) => fc.oneof(valid.map((text): WithForbidden => ({ text, forbidden: [] })), withForbidden(valid, "single"))
      const bodies = fc.tuple(bad(validName), bad(validIdentifier)).filter(([n, o]) => n.forbidden.length + o.forbidden.length > 0)
      await refusedWithoutTrace(bodies, async ([name, owner]) => {
        const reply = await t.api.call("POST", "/api/admin/games", { token: admin, body: { name: name.text, kind: "web", ownerId: owner.text } })
        expectRefused(reply, "name", name.forbidden)
        expectRefused(reply, "ownerId", owner.forbidden)
        expect(await run(GameStore.use((g) => g.listByOwner(owner.text)))).toEqual([])
      })
    })

    test("POST /api/admin/games: the name is stored in NFC, the owner id verbatim (it must equal the owner's token subject)", async () => {
      await fc.assert(fc.asyncProperty(validName, validIdentifier, async (name, ownerId) => {
        const reply = await t.api.call("POST", "/api/admin/games", { token: admin, body: { name, kind: "web", ownerId } })
        expect([reply.status, reply.body.name, reply.body.ownerId], JSON.stringify(reply.body)).toEqual([201, name.normalize("NFC"), ownerId])
        expect(await storedGame(reply.body.gameId)).toMatchObject({ name: name.normalize("NFC"), ownerId })
        const seenByOwner = (await t.api.call("GET", "/api/me/games", { token: await t.token(ownerId) })).body.games
        expect(seenByOwner.map((g: { gameId: string }) => g.gameId)).toContain(reply.body.gameId)
      }), { numRuns: runs })
    })

    test("reject: a reason with a forbidden code point (LF and TAB are fine) is 400 naming it; the release stays pending", async () => {
      const owner = await t.token("text-reject-owner")
      const gameId = await newGame(t, owner, "Rejectable")
      expect((await release(t, owner, gameId, artifact(4096, "1.0.0"))).status).toBe(201)
      await refusedWithoutTrace(withForbidden(validReason, "multi"), async ({ text, forbidden }) => {
        expectRefused(await t.api.reject(admin, gameId, "1.0.0", text), "reason", forbidden)
      })
      expect(await storedRelease(gameId, "1.0.0")).toMatchObject({ status: "pending_review", rejectionReason: null, reviewedBy: null })
    })

    test("reject: a valid reason (several lines, emoji, combining marks) is stored in NFC and read back equal", async () => {
      const owner = await t.token("text-reject-good")
      const gameId = await newGame(t, owner, "Rejected Often")
      let n = 0
      await fc.assert(fc.asyncProperty(validReason, async (reason) => {
        const version = `1.0.${n++}`
        expect((await release(t, owner, gameId, artifact(4096, version))).status).toBe(201)
        const expected = reason.normalize("NFC").trim()
        const reply = await t.api.reject(admin, gameId, version, reason)
        expect([reply.status, reply.body.rejectionReason], JSON.stringify(reply.body)).toEqual([200, expected])
        expect((await storedRelease(gameId, version)).rejectionReason).toBe(expected)
        const mine = (await t.api.call("GET", "/api/me/games", { token: owner })).body.games[0].releases
        expect(mine.find((r: { version: string }) => r.version === version).rejectionReason).toBe(expected)
      }), { numRuns: Math.max(5, Math.round(runs / 3)) })
    })

    describe("the multipart path", () => {
      const submit = async (token: string, manifestText: string) => {
        const form = new FormData()
        form.append("manifest", manifestText)
        form.append("pck", new Blob([cleanPack(manifestText) as Uint8Array<ArrayBuffer>], { type: "application/octet-stream" }), "game.pck")
        const response = await t.app.fetch(new Request(`${TEST_BASE_URL}/submit-api/games/submit`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }))
        return { status: response.status, body: await response.json(), headers: response.headers } satisfies Reply
      }
      const manifest = (fields: { id: string; name: string; version?: string }) =>
        JSON.stringify({ version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://main.tscn", min_players: 1, max_players: 4, ...fields })

      test("a manifest name with a forbidden code point: the spec's manifest error, naming the field and code point; nothing stored", async () => {
        const creator = await t.token("text-multipart-bad")
        let n = 0
        await refusedWithoutTrace(withForbidden(validName, "single"), async ({ text, forbidden }) => {
          const reply = await submit(creator, manifest({ id: `bad-name-${n++}`, name: text }))
          expectRefused(reply, "name", forbidden, INVALID_MANIFEST)
          expect(reply.body.ok).toBe(false)
        })
      })

      test("a valid manifest name is stored in NFC (the pack carries it as sent)", async () => {
        const creator = await t.token("text-multipart-good")
        const reply = await submit(creator, manifest({ id: "nfc-game", name: "Cafe\u0301 \u212Bngstro\u0308m 😀" }))
        expect([reply.status, reply.body.ok], JSON.stringify(reply.body)).toEqual([200, true])
        expect((await storedGame(reply.body.gameId)).name).toBe("Café Ångström 😀")
        expect((await t.api.call("GET", `/api/games/${reply.body.gameId}`, { token: creator })).body.name).toBe("Café Ångström 😀")
      })
    })
  })
