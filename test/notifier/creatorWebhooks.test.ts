// Creators' own webhooks, end to end on the memory records: a lifecycle step enqueues the delivery with its timeline
// event, the dispatcher signs it with the subscription's whsec_ secret and POSTs it to a real receiver on loopback
// (allowed only with WEBHOOK_ALLOW_PRIVATE_ADDRESSES); without that flag the loopback address is refused.
import { Effect, Layer, ManagedRuntime } from "effect"
import { Webhook } from "standardwebhooks"
import { afterEach, describe, expect, test } from "vitest"
import { layerMemoryRecordsWithOutbox } from "../../adapters/memory/MemoryRecords.ts"
import { newWebhookSecret } from "../../adapters/notifier/standardWebhooks.ts"
import { deliverDue } from "../../adapters/notifier/WebhookDispatcher.ts"
import { layerSystemClock } from "../../adapters/system/SystemClock.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"
import { aGame, anIntent, aReleaseFor } from "../support/fixtures.ts"
import { type Answer, startReceiver } from "./receiver.ts"
import { fastPolicy } from "./support.ts"

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const setup = async (url: (receiverUrl: string) => string, script?: (index: number) => Answer) => {
  const receiver = await startReceiver({ path: "/creator-hook", ...(script ? { script } : {}) })
  cleanups.push(receiver.close)
  const runtime = ManagedRuntime.make(Layer.merge(layerMemoryRecordsWithOutbox, layerSystemClock))
  cleanups.push(() => runtime.dispose())
  const secret = newWebhookSecret()
  const game = aGame({ ownerId: "usr_creator" })
  const intent = anIntent(game.id, { version: "1.2.0" })
  await runtime.runPromise(Effect.gen(function*() {
    yield* WebhookSubscriptions.use((s) => s.add({ id: "whk_1", ownerId: "usr_creator", url: url(receiver.url), secret, createdAt: new Date() }, 5))
    yield* GameStore.use((g) => g.insert(game, "system"))
    yield* ReleaseStore.use((r) => r.recordIntent(intent))
    yield* ReleaseStore.use((r) => r.finalize(intent.id, aReleaseFor(intent)))
    yield* ReleaseStore.use((r) => r.lifecycle(game.id, { type: "approve", version: "1.2.0", by: "admin", at: new Date(), actor: "user:admin" }))
  }))
  const pass = (allowPrivateAddresses: boolean) => runtime.runPromise(deliverDue(null, fastPolicy({ allowPrivateAddresses })))
  return { receiver, secret, gameId: game.id, pass }
}

describe("creator webhooks", () => {
  test("with WEBHOOK_ALLOW_PRIVATE_ADDRESSES a loopback receiver gets the event, signed with the subscription's secret", async () => {
    const { receiver, secret, gameId, pass } = await setup((u) => u)
    // Approving a newer on_approval release also activates it: two events, two deliveries.
    expect(await pass(true)).toMatchObject({ claimed: 2, delivered: 2 })
    const calls = receiver.accepted()
    const verified = calls.map((call) => new Webhook(secret).verify(call.body, call.headers) as { type: string; data: unknown })
    expect(verified.map((v) => v.type).sort()).toEqual(["release.activated", "release.approved"])
    for (const v of verified) expect(v.data).toEqual({ gameId, version: "1.2.0", reason: null, actor: "user:admin" })
    expect(() => new Webhook(newWebhookSecret()).verify(calls[0]!.body, calls[0]!.headers)).toThrow()
    // Creators' webhooks carry only the Standard Webhooks headers.
    expect(Object.keys(calls[0]!.headers).filter((h) => h.startsWith("pckgate-webhook"))).toEqual([])
    // Delivered once: nothing is due any more.
    expect(await pass(true)).toMatchObject({ claimed: 0 })
  })

  test("without the flag, an https URL on a loopback address is refused and nothing is sent", async () => {
    const { receiver, pass } = await setup((u) => u.replace("http://", "https://"))
    expect(await pass(false)).toMatchObject({ claimed: 2, delivered: 0, retrying: 2 })
    expect(receiver.calls).toHaveLength(0)
  })

  test("without the flag, an http URL is given up; a redirect is a failure, not followed", async () => {
    const plain = await setup((u) => u)
    expect(await plain.pass(false)).toMatchObject({ claimed: 2, abandoned: 2 })
    expect(plain.receiver.calls).toHaveLength(0)
    const redirected = await setup((u) => u, () => 302)
    expect(await redirected.pass(true)).toMatchObject({ claimed: 2, delivered: 0, retrying: 2 })
    expect(redirected.receiver.calls.map((c) => c.path)).toEqual(["/creator-hook", "/creator-hook"])
  })
})
