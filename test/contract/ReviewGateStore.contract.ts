import { assert, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import { GameStore } from "../../ports/GameStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { Timeline } from "../../ports/Timeline.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"

const NOW = new Date("2026-03-04T12:00:00.123Z")
const LATER = new Date("2026-03-04T12:30:00.123Z")

/** A game with one pending release; the gate's rows refer to both. */
const pendingRelease = (version = "1.0.0") =>
  Effect.gen(function*() {
    const game = aGame()
    yield* GameStore.use((g) => g.insert(game, "system"))
    const intent = anIntent(game.id, { version, createdBy: game.ownerId })
    yield* ReleaseStore.use((r) => r.recordIntent(intent))
    yield* ReleaseStore.use((r) => r.finalize(intent.id, aReleaseFor(intent)))
    return { gameId: game.id, version }
  })

/** The game's timeline after its release was finalized, as [kind, version, actor, reason, at]. */
const gateEvents = (gameId: string) =>
  Timeline.use((t) => t.list(gameId, 0, 1000)).pipe(
    Effect.map((events) =>
      events.filter((e) => !["game_created", "upload_url_issued", "finalized"].includes(e.kind)).map((e) => [e.kind, e.version, e.actor, e.reason, e.at.toISOString()])
    ),
  )

/** Behaviour every ReviewGateStore must have, with the ReleaseStore over the same records (review ends claims). */
export const reviewGateStoreContract = (name: string, makeLayer: () => Layer.Layer<ReviewGateStore | GameStore | ReleaseStore | Timeline, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`ReviewGateStore contract: ${name}`, (it) => {
    it.effect("a claim holds against others until it ends; the holder renews; once expired anyone may claim", () =>
      Effect.gen(function*() {
        const store = yield* ReviewGateStore
        const { gameId, version } = yield* pendingRelease()
        const first = { gameId, version, by: "admin-ä", until: LATER }
        assert.deepStrictEqual(yield* store.claim(first, NOW), first)
        assert.deepStrictEqual(Option.getOrNull(yield* store.getClaim(gameId, version)), first)
        const refused = yield* Effect.flip(store.claim({ gameId, version, by: "admin-b", until: new Date(LATER.getTime() + 1) }, NOW))
        assert.deepStrictEqual([refused._tag, refused._tag === "Claimed" && refused.claimedBy, refused._tag === "Claimed" && refused.claimedUntil], ["Claimed", "admin-ä", LATER])
        const renewed = { ...first, until: new Date(LATER.getTime() + 60_000) }
        yield* store.claim(renewed, NOW)
        assert.deepStrictEqual(Option.getOrNull(yield* store.getClaim(gameId, version)), renewed)
        const takeover = { gameId, version, by: "admin-b", until: new Date(renewed.until.getTime() + 1_800_000) }
        assert.deepStrictEqual(yield* store.claim(takeover, renewed.until), takeover, "expired at its end instant")
        assert.isFalse(yield* store.unclaim(gameId, version, "admin-ä"), "only the holder ends a claim")
        assert.deepStrictEqual(yield* store.claimsOf([{ gameId, version }, { gameId, version: "9.9.9" }]), [takeover])
        assert.isTrue(yield* store.unclaim(gameId, version, "admin-b"))
        assert.isTrue(Option.isNone(yield* store.getClaim(gameId, version)))
        assert.deepStrictEqual(yield* store.claimsOf([{ gameId, version }]), [])
      }))

    it.effect("8 administrators claiming one release at once: exactly one holds it", () =>
      Effect.gen(function*() {
        const store = yield* ReviewGateStore
        const { gameId, version } = yield* pendingRelease()
        const exits = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) => Effect.exit(store.claim({ gameId, version, by: `racer-${i}`, until: LATER }, NOW))),
          { concurrency: "unbounded" },
        )
        const winners = exits.filter(Exit.isSuccess)
        assert.strictEqual(winners.length, 1)
        assert.strictEqual(Option.getOrThrow(yield* store.getClaim(gameId, version)).by, winners[0]!.value.by)
      }))

    it.effect("a review by another administrator during a live claim is refused; the holder's decision ends the claim and keeps the override", () =>
      Effect.gen(function*() {
        const store = yield* ReviewGateStore
        const releases = yield* ReleaseStore
        const { gameId, version } = yield* pendingRelease()
        yield* store.claim({ gameId, version, by: "holder", until: LATER }, NOW)
        const refused = yield* Effect.flip(releases.review(gameId, version, { status: "approved", by: "other", at: NOW, reason: null, overrideReason: "x" }))
        assert.strictEqual(refused._tag, "Claimed")
        assert.strictEqual(Option.getOrThrow(yield* releases.get(gameId, version)).status, "pending_review")
        assert.isTrue(Option.isNone(yield* store.getOverride(gameId, version)), "a refused decision records no override")
        const reason = "Reviewed by hand — the shell call is the level editor 🛠\nline two"
        const approved = yield* releases.review(gameId, version, { status: "approved", by: "holder", at: NOW, reason: null, overrideReason: reason })
        assert.strictEqual(approved.status, "approved")
        assert.isTrue(Option.isNone(yield* store.getClaim(gameId, version)))
        assert.deepStrictEqual(Option.getOrNull(yield* store.getOverride(gameId, version)), { reason, by: "holder", at: NOW })
      }))

    it.effect("an expired claim does not hold a review; a decision without an override records none", () =>
      Effect.gen(function*() {
        const store = yield* ReviewGateStore
        const releases = yield* ReleaseStore
        const { gameId, version } = yield* pendingRelease()
        yield* store.claim({ gameId, version, by: "holder", until: NOW }, new Date(NOW.getTime() - 1))
        yield* releases.review(gameId, version, { status: "rejected", by: "other", at: NOW, reason: "no" })
        assert.isTrue(Option.isNone(yield* store.getClaim(gameId, version)))
        assert.isTrue(Option.isNone(yield* store.getOverride(gameId, version)))
      }))

    it.effect("acceptances: per game and fingerprint, replaced by a new acceptance, withdrawn once", () =>
      Effect.gen(function*() {
        const store = yield* ReviewGateStore
        const { gameId } = yield* pendingRelease()
        const other = yield* pendingRelease()
        const first = { gameId, fingerprint: "fp_b", by: "admin-1", at: NOW, reason: "Needed — für den Editor ✓" }
        assert.deepStrictEqual(yield* store.accept(first), first)
        yield* store.accept({ gameId, fingerprint: "fp_a", by: "admin-2", at: NOW, reason: "ok" })
        yield* store.accept({ gameId: other.gameId, fingerprint: "fp_b", by: "admin-3", at: NOW, reason: "elsewhere" })
        const replaced = { ...first, by: "admin-3", at: LATER, reason: "still needed" }
        yield* store.accept(replaced)
        assert.deepStrictEqual((yield* store.acceptances(gameId)).map((a) => [a.fingerprint, a.by]), [["fp_a", "admin-2"], ["fp_b", "admin-3"]])
        assert.deepStrictEqual((yield* store.acceptances(gameId))[1], replaced)
        assert.isTrue(yield* store.withdraw(gameId, "fp_b", { actor: "user:admin-2", at: NOW }))
        assert.isFalse(yield* store.withdraw(gameId, "fp_b", { actor: "user:admin-2", at: NOW }))
        assert.deepStrictEqual((yield* store.acceptances(gameId)).map((a) => a.fingerprint), ["fp_a"])
        assert.deepStrictEqual((yield* store.acceptances(other.gameId)).map((a) => a.fingerprint), ["fp_b"])
      }))
    it.effect("timeline: taking a claim appends `claimed` with it; renewing one's own live claim appends nothing; a refused claim nothing", () =>
      Effect.gen(function*() {
        const store = yield* ReviewGateStore
        const { gameId, version } = yield* pendingRelease()
        yield* store.claim({ gameId, version, by: "admin-a", until: LATER }, NOW, "api_key:key-1")
        yield* store.claim({ gameId, version, by: "admin-a", until: LATER }, new Date(NOW.getTime() + 1000))
        yield* Effect.flip(store.claim({ gameId, version, by: "admin-b", until: LATER }, NOW))
        yield* store.claim({ gameId, version, by: "admin-b", until: new Date(LATER.getTime() + 60_000) }, LATER)
        assert.deepStrictEqual(yield* gateEvents(gameId), [
          ["claimed", version, "api_key:key-1", null, NOW.toISOString()],
          ["claimed", version, "user:admin-b", null, LATER.toISOString()],
        ])
      }))

    it.effect("timeline: the approval's override reason is on its `approved` event; a decision refused by a claim appends nothing", () =>
      Effect.gen(function*() {
        const store = yield* ReviewGateStore
        const releases = yield* ReleaseStore
        const { gameId, version } = yield* pendingRelease()
        yield* store.claim({ gameId, version, by: "holder", until: LATER }, NOW)
        const refused = yield* Effect.flip(
          releases.lifecycle(gameId, { type: "approve", version, by: "other", at: NOW, actor: "user:other", overrideReason: "x" }),
        )
        assert.strictEqual(refused._tag, "Claimed")
        const reason = "Shell call is the level editor ✓\nsecond line"
        const outcome = yield* releases.lifecycle(gameId, { type: "approve", version, by: "holder", at: NOW, actor: "user:holder", overrideReason: reason })
        assert.strictEqual(outcome.activeVersion, version)
        assert.isTrue(Option.isNone(yield* store.getClaim(gameId, version)), "the decision ended the claim")
        assert.deepStrictEqual(Option.getOrNull(yield* store.getOverride(gameId, version)), { reason, by: "holder", at: NOW })
        assert.deepStrictEqual(yield* gateEvents(gameId), [
          ["claimed", version, "user:holder", null, NOW.toISOString()],
          ["approved", version, "user:holder", reason, NOW.toISOString()],
          ["activated", version, "user:holder", null, NOW.toISOString()],
        ])
        const plain = yield* pendingRelease()
        yield* releases.lifecycle(plain.gameId, { type: "approve", version: plain.version, by: "holder", at: NOW, actor: "user:holder" })
        assert.deepStrictEqual((yield* gateEvents(plain.gameId))[0], ["approved", plain.version, "user:holder", null, NOW.toISOString()])
      }))

    it.effect("timeline: accepting appends `finding_accepted` (fingerprint and reason), withdrawing `finding_acceptance_withdrawn`; withdrawing none appends nothing", () =>
      Effect.gen(function*() {
        const store = yield* ReviewGateStore
        const { gameId } = yield* pendingRelease()
        yield* store.accept({ gameId, fingerprint: "fp_c", by: "admin-1", at: NOW, reason: "Needed — für den Editor" }, "api_key:key-2")
        yield* store.accept({ gameId, fingerprint: "fp_c", by: "admin-2", at: LATER, reason: "still needed" })
        assert.isTrue(yield* store.withdraw(gameId, "fp_c", { actor: "user:admin-3", at: LATER }))
        assert.isFalse(yield* store.withdraw(gameId, "fp_c", { actor: "user:admin-3", at: LATER }))
        assert.isFalse(yield* store.withdraw(gameId, "fp_unknown", { actor: "user:admin-3", at: LATER }))
        assert.deepStrictEqual(yield* gateEvents(gameId), [
          ["finding_accepted", null, "api_key:key-2", "fp_c: Needed — für den Editor", NOW.toISOString()],
          ["finding_accepted", null, "user:admin-2", "fp_c: still needed", LATER.toISOString()],
          ["finding_acceptance_withdrawn", null, "user:admin-3", "fp_c", LATER.toISOString()],
        ])
      }))
  })
