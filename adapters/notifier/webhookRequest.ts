// One webhook POST over node:http(s), whose socket connects only to addresses deliveryAddress.ts checked (its own
// `lookup`): fetch cannot be told which address to use, and a second lookup would let a rebinding name change its
// answer between the check and the connection. TLS still names and verifies the URL's host (SNI, certificate).
import { request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"
import { rootCertificates } from "node:tls"
import { checkedLookup, type ConnectTo, refusedLiteral, type Resolver, systemResolver } from "./deliveryAddress.ts"

/** How deliveries reach the network: the defaults in production; tests inject a resolver and trust their receiver's certificate. */
export interface DeliveryNetwork {
  /** Resolves host names (default: the system's resolver). */
  readonly resolve?: Resolver
  /** Certificates (PEM) trusted besides Node's root certificates. */
  readonly extraCa?: ReadonlyArray<string>
  /**
   * Tests only: where the socket connects for an answer that passed the check (default: that answer), so a test can
   * stand a loopback listener in for a public address and see which answer the socket was handed.
   */
  readonly connectTo?: ConnectTo
}

export interface WebhookRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  /** Connect only to public addresses (creators' webhooks); otherwise to whatever the host resolves to. */
  readonly publicOnly: boolean
  readonly network: DeliveryNetwork
  readonly signal: AbortSignal
}

/**
 * The response's status once its headers arrived (the body is not read, redirects are not followed); rejects with the
 * request's error — RefusedAddress when the address check refused the host, before any connection.
 */
export const postWebhook = (webhook: WebhookRequest): Promise<number> =>
  new Promise((resolve, reject) => {
    const url = new URL(webhook.url)
    const host = url.hostname.replace(/^\[|\]$/g, "")
    const refused = refusedLiteral(host, webhook.publicOnly)
    if (refused !== null) return reject(refused)
    if (url.protocol !== "https:" && url.protocol !== "http:") return reject(new Error(`unsupported protocol ${url.protocol}`))
    const send = url.protocol === "https:" ? httpsRequest : httpRequest
    const request = send({
      hostname: host,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: { ...webhook.headers, host: url.host, "content-length": String(Buffer.byteLength(webhook.body)) },
      lookup: checkedLookup(webhook.network.resolve ?? systemResolver, webhook.publicOnly, webhook.network.connectTo),
      // A connection of its own: no pooled socket skips the check, and none opened under another policy is reused.
      agent: false,
      signal: webhook.signal,
      ...(webhook.network.extraCa === undefined ? {} : { ca: [...rootCertificates, ...webhook.network.extraCa] }),
    }, (response) => {
      resolve(response.statusCode ?? 0)
      response.destroy()
    })
    request.on("error", reject)
    request.end(webhook.body)
  })
