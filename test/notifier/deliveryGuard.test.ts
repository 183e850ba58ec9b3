// The address guard at delivery time, over real sockets: a creator's webhook whose host is, or resolves to, an address
// that is not public is refused before any connection (the https receiver on loopback counts TCP connections: zero),
// recorded as a failed attempt and retried; a name that answers a public address first and loopback next (DNS
// rebinding) never reaches loopback, since the connection uses the very answer that was checked (the public address
// is stood in for by a second loopback address: no packet leaves the machine); with
// WEBHOOK_ALLOW_PRIVATE_ADDRESSES the loopback receiver gets the delivery over TLS, verified against the URL's host.
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { Webhook } from "standardwebhooks"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import { layerMemoryRecordsWithOutbox } from "../../adapters/memory/MemoryRecords.ts"
import type { ResolvedAddress } from "../../adapters/notifier/deliveryAddress.ts"
import { webhookDeliveries } from "../../adapters/notifier/creatorEvents.ts"
import { newWebhookSecret } from "../../adapters/notifier/standardWebhooks.ts"
import { type DeliveryPolicy, deliverDue } from "../../adapters/notifier/WebhookDispatcher.ts"
import { layerCapturedLogs, type LogLine } from "../../adapters/observability/jsonLogger.ts"
import { layerSystemClock } from "../../adapters/system/SystemClock.ts"
import { NotificationOutbox } from "../../ports/NotificationOutbox.ts"
import { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"
import { eventually, fastPolicy } from "./support.ts"
import { startTlsReceiver, type TlsReceiver } from "./tlsReceiver.ts"

let receiver: TlsReceiver
beforeAll(async () => {
  receiver = await startTlsReceiver()
})
afterAll(() => receiver.close())

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Answers each name from a table, counting the questions; other names are not found. */
const resolverOf = (answers: (hostname: string, call: number) => ReadonlyArray<ResolvedAddress> | undefined) => {
  const calls: Array<string> = []
  const resolve = (hostname: string) => {
    calls.push(hostname)
    const found = answers(hostname, calls.length)
    return found === undefined ? Promise.reject(Object.assign(new Error("not found"), { code: "ENOTFOUND" })) : Promise.resolve(found)
  }
  return { resolve, calls }
}

const PATH_TOKEN = "tok_0123456789abcdefghij"

/** One creator subscription to `url` with one delivery queued for it; `pass` runs the dispatcher once. */
const subscribed = async (url: string, policy: Partial<DeliveryPolicy>) => {
  const logs: Array<LogLine> = []
  const runtime = ManagedRuntime.make(Layer.mergeAll(layerMemoryRecordsWithOutbox, layerSystemClock, layerCapturedLogs(logs)))
  cleanups.push(() => runtime.dispose())
  const secret = newWebhookSecret()
  const [delivery] = webhookDeliveries({ type: "release.approved", at: new Date(), data: { gameId: "gm_guard", version: "1.0.0" } }, ["whk_guard"])
  await runtime.runPromise(Effect.gen(function*() {
    yield* WebhookSubscriptions.use((s) => s.add({ id: "whk_guard", ownerId: "usr_guard", url, secret, createdAt: new Date() }, 5))
    yield* NotificationOutbox.use((o) => o.enqueue([delivery!]))
  }))
  const stored = () => runtime.runPromise(NotificationOutbox.use((o) => o.get(delivery!.id)).pipe(Effect.map(Option.getOrThrow)))
  const pass = () => runtime.runPromise(deliverDue(null, fastPolicy(policy)))
  /** Passes until the delivery's `n`-th attempt is recorded (a retry is due within milliseconds). */
  const attempt = async (n: number) => {
    await eventually(async () => {
      await pass()
      return (await stored()).attempts >= n
    }, `attempt ${n}`)
    return stored()
  }
  return { secret, logs, stored, pass, attempt }
}

const trustReceiver = () => ({ extraCa: [receiver.certificate] })

describe("creator webhooks reach only public addresses", () => {
  test("a name the system resolves to loopback (localhost) is refused with no connection, recorded as a failed attempt", async () => {
    const before = receiver.connections()
    const { pass, stored, logs, secret } = await subscribed(`https://localhost:${receiver.port}/hook/${PATH_TOKEN}`, { network: trustReceiver() })
    expect(await pass()).toEqual({ claimed: 1, delivered: 0, retrying: 1, abandoned: 0 })
    expect(receiver.connections()).toBe(before)
    const delivery = await stored()
    expect(delivery).toMatchObject({ status: "pending", attempts: 1 })
    expect(delivery.lastError).toMatch(/^refused: the host is or resolves to (127\.0\.0\.1|::1), not a public address/)
    // The log says why, without the URL's path or the secret.
    const text = JSON.stringify(logs)
    expect(text).toContain("webhook attempt failed")
    expect(text).not.toContain(PATH_TOKEN)
    expect(text).not.toContain(secret)
  })

  test("IP-literal hosts that are loopback in any spelling are refused with no connection; with the flag they connect", async () => {
    const literals = ["[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:7f00:1]", "127.0.0.1", "0x7f.1", "2130706433", "[::1]"]
    const before = receiver.connections()
    for (const host of literals) {
      const { pass, stored } = await subscribed(`https://${host}:${receiver.port}/hook`, { network: trustReceiver() })
      expect(await pass(), host).toMatchObject({ claimed: 1, retrying: 1 })
      expect((await stored()).lastError, host).toMatch(/^refused: the host is or resolves to (::ffff:7f00:1|127\.0\.0\.1|::1), not a public address/)
    }
    expect(receiver.connections()).toBe(before)
    // The control: these addresses do reach the receiver (whose certificate names hosts, not addresses: no request).
    for (const host of literals) {
      const { pass, stored } = await subscribed(`https://${host}:${receiver.port}/hook`, { network: trustReceiver(), allowPrivateAddresses: true })
      expect(await pass(), host).toMatchObject({ claimed: 1, retrying: 1 })
      expect((await stored()).lastError, host).toBe("network error ERR_TLS_CERT_ALTNAME_INVALID")
    }
    expect(receiver.connections()).toBe(before + literals.length)
  })

  test("a name answering a public address, then loopback (DNS rebinding), never leads to a connection to loopback", async () => {
    const before = receiver.connectedTo().length
    const dns = resolverOf((hostname, call) => (hostname === "rebind.test" ? [{ address: call === 1 ? "1.1.1.1" : "127.0.0.1", family: 4 }] : undefined))
    // The public answer stands for a host on the Internet: the socket handed it dials 127.0.0.2 instead (the receiver
    // listens there too, and tells the two loopback addresses apart), so nothing leaves this machine. Every other
    // answer the socket is handed is dialled as it is.
    const handed: Array<string> = []
    const connectTo = (checked: ResolvedAddress) => {
      handed.push(checked.address)
      return checked.address === "1.1.1.1" ? { address: "127.0.0.2", family: 4 } : checked
    }
    const { attempt } = await subscribed(`https://rebind.test:${receiver.port}/hook`, { network: { ...trustReceiver(), resolve: dns.resolve, connectTo } })
    const first = await attempt(1)
    expect(first).toMatchObject({ status: "pending", attempts: 1 })
    // The stand-in's certificate does not name rebind.test: the connection was made, the request was not.
    expect(first.lastError).toBe("network error ERR_TLS_CERT_ALTNAME_INVALID")
    // One resolution per attempt, and the socket connected to the very answer that was checked.
    expect(dns.calls).toEqual(["rebind.test"])
    expect(handed).toEqual(["1.1.1.1"])
    expect(receiver.connectedTo().slice(before)).toEqual(["::ffff:127.0.0.2"])
    const second = await attempt(2)
    expect(second.lastError).toMatch(/^refused: the host is or resolves to 127\.0\.0\.1/)
    expect(dns.calls).toEqual(["rebind.test", "rebind.test"])
    expect(handed).toEqual(["1.1.1.1"])
    expect(receiver.connectedTo().slice(before)).toEqual(["::ffff:127.0.0.2"])
  })

  test("a name resolving to a public and a private address is refused as a whole", async () => {
    const before = receiver.connections()
    const dns = resolverOf((hostname) => (hostname === "mixed.test" ? [{ address: "1.1.1.1", family: 4 }, { address: "::ffff:a9fe:a9fe", family: 6 }] : undefined))
    const { pass, stored } = await subscribed(`https://mixed.test:${receiver.port}/hook`, { network: { resolve: dns.resolve } })
    expect(await pass()).toMatchObject({ claimed: 1, retrying: 1 })
    expect((await stored()).lastError).toMatch(/^refused: the host is or resolves to ::ffff:a9fe:a9fe/)
    expect(receiver.connections()).toBe(before)
  })
})

describe("WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1 (tests only)", () => {
  test("a loopback https receiver gets the delivery, with SNI, Host and the certificate checked against the URL's host", async () => {
    const dns = resolverOf((hostname) => (hostname === "hooks.test" || hostname === "other.test" ? [{ address: "127.0.0.1", family: 4 }] : undefined))
    const network = { ...trustReceiver(), resolve: dns.resolve }
    const named = await subscribed(`https://hooks.test:${receiver.port}/hook?via=name`, { network, allowPrivateAddresses: true })
    expect(await named.pass()).toMatchObject({ claimed: 1, delivered: 1 })
    const local = await subscribed(`https://localhost:${receiver.port}/hook?via=system`, { network: trustReceiver(), allowPrivateAddresses: true })
    expect(await local.pass()).toMatchObject({ claimed: 1, delivered: 1 })
    const byName = receiver.requests.find((r) => r.path === "/hook?via=name")!
    expect([byName.servername, byName.host]).toEqual(["hooks.test", `hooks.test:${receiver.port}`])
    expect(new Webhook(named.secret).verify(byName.body, byName.headers)).toMatchObject({ type: "release.approved" })
    expect(receiver.requests.find((r) => r.path === "/hook?via=system")?.servername).toBe("localhost")
    expect((await named.stored()).status).toBe("delivered")
    // The same address under a name the certificate does not carry: the TLS check fails, nothing is posted.
    const count = receiver.requests.length
    const other = await subscribed(`https://other.test:${receiver.port}/hook`, { network, allowPrivateAddresses: true })
    expect(await other.pass()).toMatchObject({ claimed: 1, delivered: 0, retrying: 1 })
    expect((await other.stored()).lastError).toBe("network error ERR_TLS_CERT_ALTNAME_INVALID")
    // Without the receiver's certificate trusted, neither is it delivered.
    const untrusted = await subscribed(`https://localhost:${receiver.port}/hook`, { allowPrivateAddresses: true })
    expect(await untrusted.pass()).toMatchObject({ claimed: 1, delivered: 0, retrying: 1 })
    expect((await untrusted.stored()).lastError).toMatch(/^network error (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)$/)
    expect(receiver.requests.length).toBe(count)
  })
})
