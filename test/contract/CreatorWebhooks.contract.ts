// Creator webhook deliveries on a store: the timeline event and its outbox rows (one per subscription of the game's
// owner) commit together; a refused step writes neither; other owners' subscriptions get nothing.
import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { subscriptionOfDelivery } from "../../adapters/notifier/creatorEvents.ts"
import { credentialRecord } from "../../domain/credentials/credentialEvents.ts"
import { ApiKeyStore } from "../../ports/ApiKeyStore.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { Timeline } from "../../ports/Timeline.ts"
import { TrustedPublisherStore } from "../../ports/TrustedPublisherStore.ts"
import { NotificationOutbox } from "../../ports/NotificationOutbox.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"

type Stores = ReleaseStore | GameStore | WebhookSubscriptions | NotificationOutbox | ApiKeyStore | TrustedPublisherStore | Timeline
const AT = new Date("2026-05-01T00:00:00.000Z")
const FAR = new Date("2100-01-01T00:00:00.000Z")
let n = 0

const subscribe = (ownerId: string) =>
  Effect.gen(function*() {
    const id = `whk_contract${++n}x${Math.random().toString(36).slice(2, 8)}`
    yield* WebhookSubscriptions.use((s) => s.add({ id, ownerId, url: `https://hooks.example/${id}`, secret: "whsec_AAAA", createdAt: AT }, 5))
    return id
  })

const pendingRelease = (ownerId: string, version: string) =>
  Effect.gen(function*() {
    const game = aGame({ ownerId })
    yield* GameStore.use((g) => g.insert(game, "system"))
    const intent = anIntent(game.id, { version })
    yield* ReleaseStore.use((r) => r.recordIntent(intent))
    yield* ReleaseStore.use((r) => r.finalize(intent.id, aReleaseFor(intent)))
    return game.id
  })

/** Every pending delivery (leased far in the future, so each call sees only what was added since the last). */
const drain = NotificationOutbox.use((o) => o.claimDue({ now: FAR, limit: 1000, lease: `l${++n}`, leasedUntil: new Date(FAR.getTime() + 1e12) }))

export const creatorWebhooksContract = (name: string, makeLayer: () => Layer.Layer<Stores, unknown>) =>
  layer(makeLayer(), { timeout: 120_000 })(`Creator webhook outbox contract: ${name}`, (it) => {
    it.effect("a lifecycle step enqueues one delivery per owner subscription with the timeline event; a refused step none", () =>
      Effect.gen(function*() {
        const owner = `usr_cw${++n}`
        const [first, second] = [yield* subscribe(owner), yield* subscribe(owner)]
        const stranger = yield* subscribe(`usr_other${n}`)
        const gameId = yield* pendingRelease(owner, "1.0.0")
        yield* drain
        yield* ReleaseStore.use((r) => r.lifecycle(gameId, { type: "reject", version: "1.0.0", by: "admin", at: AT, actor: "user:admin", reason: "missing icon" }))
        const rejected = yield* drain
        assert.deepStrictEqual(rejected.map((d) => subscriptionOfDelivery(d.dedupeKey)).sort(), [first, second].sort())
        assert.ok(!rejected.some((d) => subscriptionOfDelivery(d.dedupeKey) === stranger))
        for (const delivery of rejected) {
          assert.strictEqual(delivery.type, "release.rejected")
          assert.deepStrictEqual(JSON.parse(delivery.body).data, { gameId, version: "1.0.0", reason: "missing icon", actor: "user:admin" })
        }
        // Withdrawing a rejected release is refused: no timeline event, so no delivery.
        const refused = yield* Effect.flip(ReleaseStore.use((r) => r.lifecycle(gameId, { type: "withdraw", version: "1.0.0", at: AT, actor: "user:x" })))
        assert.strictEqual(refused._tag, "LifecycleRefused")
        assert.strictEqual((yield* drain).length, 0)
      }))

    it.effect("credential changes write their timeline events and one delivery per owner subscription with the change", () =>
      Effect.gen(function*() {
        const owner = `usr_cw${++n}`
        const subscription = yield* subscribe(owner)
        const gameId = yield* pendingRelease(owner, "1.0.0")
        yield* drain
        const publisher = {
          id: `tp_contract${++n}`, gameId, provider: "github" as const, repository: "o/r", workflow: ".github/workflows/r.yml",
          environment: null, ref: null, repositoryId: null, repositoryOwnerId: null, createdBy: owner, createdAt: AT,
        }
        const added = { type: "trusted_publisher.added", ownerId: owner, actor: `user:${owner}`, gameId, publisherId: publisher.id } as const
        yield* TrustedPublisherStore.use((s) => s.add(publisher, 20, credentialRecord(added, [gameId], AT)))
        const timeline = yield* Timeline.use((t) => t.list(gameId, 0, 100))
        assert.deepStrictEqual(timeline.filter((e) => e.kind === "trusted_publisher_added").map((e) => [e.actor, e.reason]), [[`user:${owner}`, publisher.id]])
        const sent = yield* drain
        assert.deepStrictEqual(sent.map((d) => [d.type, subscriptionOfDelivery(d.dedupeKey)]), [["trusted_publisher.added", subscription]])
        assert.deepStrictEqual(JSON.parse(sent[0]!.body).data, { actor: `user:${owner}`, gameId, publisherId: publisher.id, gameIds: [gameId] })
        // A removal that removes nothing writes nothing.
        const removed = { ...added, type: "trusted_publisher.removed" } as const
        assert.strictEqual(yield* TrustedPublisherStore.use((s) => s.remove(gameId, "tp_missing", credentialRecord(removed, [gameId], AT))), false)
        assert.strictEqual((yield* drain).length, 0)
        // An account-wide key of an owner with no game is still announced to their webhooks.
        const lonely = `usr_cw${++n}`
        const lonelySubscription = yield* subscribe(lonely)
        const keyCreated = { type: "api_key.created", ownerId: lonely, actor: `user:${lonely}`, apiKeyId: `key_c${n}` } as const
        yield* ApiKeyStore.use((s) =>
          s.create({
            id: keyCreated.apiKeyId, ownerId: lonely, name: "k", prefix: "pckg_x", keyHash: `h${n}`, games: "all", scopes: ["read"],
            createdAt: AT, expiresAt: null, revokedAt: null, lastUsedAt: null,
          }, 50, credentialRecord(keyCreated, [], AT))
        )
        assert.deepStrictEqual((yield* drain).map((d) => [d.type, subscriptionOfDelivery(d.dedupeKey)]), [["api_key.created", lonelySubscription]])
      }))

    it.effect("the dispatcher's lookup finds a subscription by id, and not once it is removed", () =>
      Effect.gen(function*() {
        const owner = `usr_cw${++n}`
        const id = yield* subscribe(owner)
        assert.strictEqual((yield* WebhookSubscriptions.use((s) => s.get(id)))?.ownerId, owner)
        yield* WebhookSubscriptions.use((s) => s.remove(owner, id))
        assert.strictEqual(yield* WebhookSubscriptions.use((s) => s.get(id)), null)
      }))
  })
