// A webhook receiver on loopback for tests: records every request and answers as the test script says (a status,
// a dropped connection, or no answer at all). It can go down and come back on the same port.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { verifyWebhook, WEBHOOK_HEADERS } from "../../adapters/notifier/webhookSignature.ts"

export type Answer = number | "drop" | "hang"

export interface ReceivedCall {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly answer: Answer
}

export interface Receiver {
  /** http://127.0.0.1:<port><path> */
  readonly url: string
  readonly calls: ReadonlyArray<ReceivedCall>
  /** Calls answered 2xx, in arrival order. */
  readonly accepted: () => ReadonlyArray<ReceivedCall>
  /** Resolves once `predicate` holds (checked on every call and every 20 ms); rejects after `timeoutMs`. */
  readonly until: (predicate: (receiver: Receiver) => boolean, what: string, timeoutMs?: number) => Promise<void>
  /** Stops listening and drops open connections (the receiver is down: connections are refused). */
  readonly down: () => Promise<void>
  /** Listens again on the same port. */
  readonly up: () => Promise<void>
  readonly close: () => Promise<void>
}

/** `script(n, call)` answers the n-th request (0-based); the default accepts everything with 204. */
export const startReceiver = async (
  options: { readonly path?: string; readonly script?: (index: number, call: Omit<ReceivedCall, "answer">) => Answer } = {},
): Promise<Receiver> => {
  const calls: Array<ReceivedCall> = []
  const script = options.script ?? (() => 204)
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers[name] = value
      const call = { method: request.method ?? "", path: request.url ?? "", headers, body: Buffer.concat(chunks).toString("utf8") }
      const answer = script(calls.length, call)
      calls.push({ ...call, answer })
      if (answer === "drop") request.socket.destroy()
      else if (answer !== "hang") response.writeHead(answer, answer >= 300 && answer < 400 ? { location: "/elsewhere" } : {}).end()
    })
  }
  let server: Server | null = null
  let port = 0
  const up = () =>
    new Promise<void>((resolve, reject) => {
      const created = createServer(handle)
      created.once("error", reject)
      created.listen(port, "127.0.0.1", () => {
        port = (created.address() as AddressInfo).port
        server = created
        resolve()
      })
    })
  const down = () =>
    new Promise<void>((resolve) => {
      const running = server
      server = null
      if (running === null) return resolve()
      running.close(() => resolve())
      running.closeAllConnections()
    })
  await up()
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}${options.path ?? "/hooks/review"}`,
    calls,
    accepted: () => calls.filter((c) => typeof c.answer === "number" && c.answer >= 200 && c.answer < 300),
    until: async (predicate, what, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs
      while (!predicate(receiver)) {
        if (Date.now() > deadline) throw new Error(`receiver: timed out waiting for ${what}; calls: ${JSON.stringify(calls.map((c) => [c.headers[WEBHOOK_HEADERS.id], c.answer]))}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    down,
    up,
    close: down,
  }
  return receiver
}

/** What a receiver checks: the signature over the exact body, with the shared secret and a fresh timestamp. */
export const verifies = (call: ReceivedCall, secret: string, body = call.body) =>
  verifyWebhook({
    secret,
    body,
    timestamp: call.headers[WEBHOOK_HEADERS.timestamp],
    signature: call.headers[WEBHOOK_HEADERS.signature],
    nowSeconds: Math.floor(Date.now() / 1000),
  }).ok
