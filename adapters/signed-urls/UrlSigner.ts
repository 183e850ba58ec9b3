// Presigned URLs for the stores the service serves itself (memory and local disk).
// An HMAC-SHA256 signature covers the method, the object key, the expiry, the declared size and the values of the
// signed headers. Clients must send the returned headers verbatim. node:crypto (also in Deno) signs synchronously:
// Web Crypto's promise per signature cost a tenth of a download-url request.
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto"

export const STORAGE_PATH_PREFIX = "/storage/"
const ALGORITHM = "PCKGATE1-HMAC-SHA256"

/** The two headers a PUT must send, as spec §4.2 states them: the type, and write-once. */
export const PUT_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/octet-stream",
  "if-none-match": "*",
}
const PUT_SIGNED_HEADERS = Object.keys(PUT_HEADERS).sort().join(";")

export type VerifiedRequest =
  | { readonly ok: true; readonly method: "PUT"; readonly key: string; readonly sizeBytes: number }
  | { readonly ok: true; readonly method: "GET"; readonly key: string; readonly downloadName: string | null }
  | { readonly ok: false; readonly reason: "malformed" | "signature" | "expired" }

export interface UrlSigner {
  presignPut(key: string, sizeBytes: number, expiresAt: Date): Promise<string>
  presignGet(key: string, expiresAt: Date, downloadName?: string): Promise<string>
  /** Checks a request against the signature in its URL; `now` decides expiry. */
  verify(request: Request, now: Date): Promise<VerifiedRequest>
}

const encodeKeyPath = (key: string) => key.split("/").map(encodeURIComponent).join("/")
const canonical = (parts: ReadonlyArray<string>) => [ALGORITHM, ...parts].join("\n")

/** `baseUrl` is read at signing time, so a server bound to port 0 can set it once it knows its address. */
export const makeUrlSigner = async (secret: Uint8Array<ArrayBuffer>, baseUrl: () => string): Promise<UrlSigner> => {
  const key = createSecretKey(secret)
  const sign = (parts: ReadonlyArray<string>) => createHmac("sha256", key).update(canonical(parts)).digest("hex")

  const putParts = (path: string, expires: string, size: string, headerValues: ReadonlyArray<string>, signedHeaders: string) => [
    "PUT",
    path,
    `expires=${expires}`,
    `size=${size}`,
    ...signedHeaders.split(";").map((name, i) => `${name}:${headerValues[i] ?? ""}`),
    signedHeaders,
  ]
  const getParts = (path: string, expires: string, filename: string) => ["GET", path, `expires=${expires}`, `filename=${filename}`]

  return {
    async presignPut(key, sizeBytes, expiresAt) {
      const path = STORAGE_PATH_PREFIX + encodeKeyPath(key)
      const expires = String(Math.floor(expiresAt.getTime() / 1000))
      const values = PUT_SIGNED_HEADERS.split(";").map((name) => PUT_HEADERS[name]!)
      const signature = sign(putParts(path, expires, String(sizeBytes), values, PUT_SIGNED_HEADERS))
      const query = new URLSearchParams({
        "X-Pckgate-Expires": expires,
        "X-Pckgate-Size": String(sizeBytes),
        "X-Pckgate-SignedHeaders": PUT_SIGNED_HEADERS,
        "X-Pckgate-Signature": signature,
      })
      return `${baseUrl()}${path}?${query}`
    },

    async presignGet(key, expiresAt, downloadName) {
      const path = STORAGE_PATH_PREFIX + encodeKeyPath(key)
      const expires = String(Math.floor(expiresAt.getTime() / 1000))
      const filename = downloadName ?? ""
      const query = new URLSearchParams({ "X-Pckgate-Expires": expires })
      if (filename !== "") query.set("X-Pckgate-Filename", filename)
      query.set("X-Pckgate-Signature", sign(getParts(path, expires, filename)))
      return `${baseUrl()}${path}?${query}`
    },

    async verify(request, now) {
      const url = new URL(request.url)
      if (!url.pathname.startsWith(STORAGE_PATH_PREFIX)) return { ok: false, reason: "malformed" }
      let key: string
      try {
        key = url.pathname.slice(STORAGE_PATH_PREFIX.length).split("/").map(decodeURIComponent).join("/")
      } catch {
        return { ok: false, reason: "malformed" }
      }
      const path = STORAGE_PATH_PREFIX + encodeKeyPath(key)
      const q = url.searchParams
      const expires = q.get("X-Pckgate-Expires") ?? ""
      const signature = q.get("X-Pckgate-Signature") ?? ""
      if (!/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: "malformed" }
      let parts: ReadonlyArray<string>
      let verified: VerifiedRequest
      if (request.method === "PUT") {
        const size = q.get("X-Pckgate-Size") ?? ""
        const signedHeaders = q.get("X-Pckgate-SignedHeaders") ?? ""
        if (!/^\d{1,16}$/.test(size) || !/^[a-z0-9-]+(;[a-z0-9-]+)*$/.test(signedHeaders)) return { ok: false, reason: "malformed" }
        const values = signedHeaders.split(";").map((name) => request.headers.get(name) ?? "")
        parts = putParts(path, expires, size, values, signedHeaders)
        verified = { ok: true, method: "PUT", key, sizeBytes: Number(size) }
      } else if (request.method === "GET" || request.method === "HEAD") {
        const filename = q.get("X-Pckgate-Filename") ?? ""
        parts = getParts(path, expires, filename)
        verified = { ok: true, method: "GET", key, downloadName: filename === "" ? null : filename }
      } else {
        return { ok: false, reason: "signature" }
      }
      if (!timingSafeEqual(Buffer.from(sign(parts), "hex"), Buffer.from(signature, "hex"))) return { ok: false, reason: "signature" }
      if (Number(expires) * 1000 <= now.getTime()) return { ok: false, reason: "expired" }
      return verified
    },
  }
}
