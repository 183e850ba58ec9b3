// Google's documented V4 signing algorithm for Cloud Storage signed URLs, written from the documentation
// (cloud.google.com/storage/docs/authentication/signatures) and independent of @google-cloud/storage:
// canonical request → string to sign → RSA-SHA256 over it, checked with the service account's public key.
// The GCS test double verifies every signed URL with it, and the signing tests verify the adapter's URLs with it.
import { createHash, type KeyObject, verify } from "node:crypto"

export const V4_ALGORITHM = "GOOG4-RSA-SHA256"

/** Percent-encodes every byte except the unreserved characters A-Z a-z 0-9 - . _ ~ (RFC 3986), as the docs require. */
export const percentEncode = (text: string): string =>
  Array.from(new TextEncoder().encode(text), (b) => {
    const c = String.fromCharCode(b)
    return /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`
  }).join("")

/** The canonical URI: each path segment decoded, then percent-encoded; slashes stay. */
export const canonicalUri = (rawPath: string): string => rawPath.split("/").map((s) => percentEncode(decodeURIComponent(s))).join("/")

/** Every query parameter but the signature, names and values encoded, sorted by name. */
export const canonicalQuery = (params: URLSearchParams): string =>
  [...params]
    .filter(([name]) => name !== "X-Goog-Signature")
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&")

const canonicalHeaderValue = (value: string) => value.trim().replace(/\s+/g, " ")

export interface SignedRequest {
  readonly method: string
  /** The request URL as the client sent it (path and query). */
  readonly url: URL
  /** Lowercase names. `host` is the Host header as sent. */
  readonly headers: Readonly<Record<string, string | undefined>>
}

export type V4Verdict =
  | { readonly ok: true; readonly clientEmail: string; readonly signedHeaders: ReadonlyArray<string>; readonly expiresAt: Date }
  | { readonly ok: false; readonly code: "AuthenticationRequired" | "MalformedSignature" | "SignatureDoesNotMatch" | "ExpiredToken" | "NotYetValid"; readonly detail: string }

const parseGoogDate = (text: string): Date | null => {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text)
  return m === null ? null : new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!))
}

/** The canonical request and string to sign for `request`, as the signer must have computed them. */
export const stringToSign = (request: SignedRequest, hostForSigning: (host: string) => string = (h) => h) => {
  const q = request.url.searchParams
  const signedHeaders = (q.get("X-Goog-SignedHeaders") ?? "").split(";")
  const headerBlock = signedHeaders
    .map((name) => {
      const sent = request.headers[name] ?? ""
      return `${name}:${canonicalHeaderValue(name === "host" ? hostForSigning(sent) : sent)}\n`
    })
    .join("")
  const canonicalRequest = [
    request.method,
    canonicalUri(request.url.pathname),
    canonicalQuery(q),
    headerBlock,
    signedHeaders.join(";"),
    "UNSIGNED-PAYLOAD",
  ].join("\n")
  const [, ...scope] = (q.get("X-Goog-Credential") ?? "").split("/")
  const hash = createHash("sha256").update(canonicalRequest).digest("hex")
  return { canonicalRequest, stringToSign: [V4_ALGORITHM, q.get("X-Goog-Date") ?? "", scope.join("/"), hash].join("\n") }
}

/**
 * Verifies a request made with a V4 signed URL. `publicKeyFor` finds the service account's key by email;
 * `hostForSigning` maps the Host header to the value that was signed.
 */
export const verifyV4 = (
  request: SignedRequest,
  options: {
    readonly now: Date
    readonly publicKeyFor: (clientEmail: string) => KeyObject | undefined
    readonly hostForSigning?: (host: string) => string
  },
): V4Verdict => {
  const q = request.url.searchParams
  const algorithm = q.get("X-Goog-Algorithm")
  const credential = q.get("X-Goog-Credential")
  const date = q.get("X-Goog-Date")
  const expires = q.get("X-Goog-Expires")
  const signedHeaders = q.get("X-Goog-SignedHeaders")
  const signature = q.get("X-Goog-Signature")
  if (algorithm === null || credential === null || date === null || expires === null || signedHeaders === null || signature === null) {
    return { ok: false, code: "AuthenticationRequired", detail: "The request is missing one of the X-Goog-* signing parameters." }
  }
  const [clientEmail = "", datestamp, region, service, terminator] = credential.split("/")
  const signedAt = parseGoogDate(date)
  const lifetime = Number(expires)
  if (
    algorithm !== V4_ALGORITHM || signedAt === null || datestamp !== date.slice(0, 8) || region !== "auto" ||
    service !== "storage" || terminator !== "goog4_request" || !Number.isInteger(lifetime) || lifetime < 1 ||
    lifetime > 604800 || !/^[0-9a-f]+$/.test(signature)
  ) {
    return { ok: false, code: "MalformedSignature", detail: "The X-Goog-* signing parameters are malformed." }
  }
  const names = signedHeaders.split(";")
  if (!names.includes("host") || names.some((n) => n !== n.toLowerCase()) || names.join(";") !== [...names].sort().join(";")) {
    return { ok: false, code: "MalformedSignature", detail: "X-Goog-SignedHeaders must be sorted lowercase names including host." }
  }
  const expiresAt = new Date(signedAt.getTime() + lifetime * 1000)
  if (options.now.getTime() > expiresAt.getTime()) {
    return { ok: false, code: "ExpiredToken", detail: `The provided token has expired. Request signature expired at: ${expiresAt.toISOString()}` }
  }
  if (options.now.getTime() < signedAt.getTime() - 60_000) {
    return { ok: false, code: "NotYetValid", detail: "The signed URL is not valid yet." }
  }
  const publicKey = options.publicKeyFor(clientEmail)
  const computed = stringToSign(request, options.hostForSigning)
  const valid = publicKey !== undefined &&
    verify("RSA-SHA256", Buffer.from(computed.stringToSign), publicKey, Buffer.from(signature, "hex"))
  if (!valid) {
    return {
      ok: false,
      code: "SignatureDoesNotMatch",
      detail: `The request signature we calculated does not match the signature you provided. Check your Google secret key and signing method.\nStringToSign:\n${computed.stringToSign}`,
    }
  }
  return { ok: true, clientEmail, signedHeaders: names, expiresAt }
}
