import { assert, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"
import { unique } from "../support/fixtures.ts"

const aSubscription = (ownerId: string, i: number) => ({
  id: unique("wh_"),
  ownerId,
  url: `https://hooks.example/${i}`,
  secret: `whsec_${"A".repeat(43)}=`,
  createdAt: new Date(Date.UTC(2026, 4, 1, 0, 0, i)),
})

export const webhookSubscriptionsContract = (name: string, makeLayer: () => Layer.Layer<WebhookSubscriptions, unknown>) =>
  layer(makeLayer(), { timeout: 60_000 })(`WebhookSubscriptions contract: ${name}`, (it) => {
    it.effect("adds up to the limit, even when adds race; lists oldest first; removes only the owner's", () =>
      Effect.gen(function*() {
        const store = yield* WebhookSubscriptions
        // First adds race too (no row of the owner exists yet to lock): several owners, so a lost race shows.
        for (const racer of [unique("racer-"), unique("racer-"), unique("racer-")]) {
          const raced = yield* Effect.all(Array.from({ length: 8 }, (_, i) => store.add(aSubscription(racer, i), 5)), { concurrency: "unbounded" })
          assert.strictEqual(raced.filter(Boolean).length, 5)
          assert.strictEqual((yield* store.listByOwner(racer)).length, 5)
        }
        const owner = unique("owner-")
        const results = yield* Effect.all(Array.from({ length: 8 }, (_, i) => store.add(aSubscription(owner, i), 5)), { concurrency: "unbounded" })
        assert.strictEqual(results.filter(Boolean).length, 5)
        const listed = yield* store.listByOwner(owner)
        assert.strictEqual(listed.length, 5)
        assert.deepStrictEqual(listed.map((s) => s.createdAt.getTime()), [...listed.map((s) => s.createdAt.getTime())].sort((a, b) => a - b))
        assert.deepStrictEqual(listed[0]!.secret, `whsec_${"A".repeat(43)}=`)
        assert.isFalse(yield* store.remove(unique("someone-"), listed[0]!.id))
        assert.isTrue(yield* store.remove(owner, listed[0]!.id))
        assert.isFalse(yield* store.remove(owner, listed[0]!.id))
        assert.strictEqual((yield* store.listByOwner(owner)).length, 4)
        assert.isTrue(yield* store.add(aSubscription(owner, 9), 5))
      }))
  })
