// An https webhook receiver on loopback for the address-guard tests: a self-signed certificate (made by openssl) for
// hooks.test and localhost, listening on both loopback families at once (::, dual stack), and counting every TCP
// connection as well as every request, so a test can prove that a refused delivery never connected at all.
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:https"
import type { AddressInfo, Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TLSSocket } from "node:tls"

export interface TlsRequest {
  readonly servername: string | false | null
  readonly host: string | undefined
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export interface TlsReceiver {
  readonly port: number
  /** The certificate (PEM), to be trusted by the sender. */
  readonly certificate: string
  /** TCP connections accepted so far, whatever became of them. */
  readonly connections: () => number
  /** The local address each accepted connection was made to, in order (an IPv4 one as ::ffff:a.b.c.d). */
  readonly connectedTo: () => ReadonlyArray<string>
  readonly requests: ReadonlyArray<TlsRequest>
  readonly close: () => Promise<void>
}

const selfSigned = (names: ReadonlyArray<string>): { readonly key: string; readonly cert: string } => {
  const dir = mkdtempSync(join(tmpdir(), "pckgate-tls-"))
  try {
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
      "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-subj", `/CN=${names[0]}`,
      "-addext", `subjectAltName=${names.map((n) => `DNS:${n}`).join(",")}`,
    ], { stdio: ["ignore", "pipe", "pipe"] })
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Answers every request 204. */
export const startTlsReceiver = async (): Promise<TlsReceiver> => {
  const { key, cert } = selfSigned(["hooks.test", "localhost"])
  const requests: Array<TlsRequest> = []
  const connectedTo: Array<string> = []
  const server = createServer({ key, cert }, (request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers[name] = value
      const servername = (request.socket as TLSSocket).servername
      requests.push({ servername, host: request.headers.host, path: request.url ?? "", headers, body: Buffer.concat(chunks).toString("utf8") })
      response.writeHead(204).end()
    })
  })
  server.on("connection", (socket: Socket) => connectedTo.push(socket.localAddress ?? ""))
  // A failed handshake (an untrusted or mismatched certificate on the sender's side) is the sender's business.
  server.on("tlsClientError", () => undefined)
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "::", () => resolve())
  })
  return {
    port: (server.address() as AddressInfo).port,
    certificate: cert,
    connections: () => connectedTo.length,
    connectedTo: () => [...connectedTo],
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
