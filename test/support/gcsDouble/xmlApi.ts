// The XML API endpoint that V4 signed URLs point at (`/{bucket}/{object}?X-Goog-…`). Like GCS it checks the signature
// with the service account's public key over the method, path, query and signed headers (so a changed or missing
// signed header fails), answers 403 SignatureDoesNotMatch, 400 ExpiredToken, 412 PreconditionFailed for
// `x-goog-if-generation-match: 0` on an existing object, and XML error bodies.
import type { KeyObject } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Blobs } from "./blobs.ts"
import { answerEarly, sendBlob, xmlError } from "./http.ts"
import { verifyV4 } from "./v4Signature.ts"

export interface XmlApiContext {
  readonly blobs: Blobs
  readonly now: () => Date
  readonly publicKeyFor: (clientEmail: string) => KeyObject | undefined
}

const PRECONDITION = ["PreconditionFailed", "At least one of the pre-conditions you specified did not hold.", "Precondition Failed"] as const

const headersOf = (req: IncomingMessage): Record<string, string> =>
  Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(",") : value ?? ""]))

// The library signs the endpoint's hostname without a port (GCS listens on the default port); the double listens on a
// loopback port, so the port is dropped from the Host header before comparing.
const hostWithoutPort = (host: string) => host.replace(/:\d+$/, "")

const verdictError = (res: ServerResponse, code: string, detail: string) => {
  if (code === "ExpiredToken") return xmlError(res, 400, "ExpiredToken", "Invalid argument.", detail)
  if (code === "SignatureDoesNotMatch") return xmlError(res, 403, "SignatureDoesNotMatch", "Access denied.", detail)
  if (code === "AuthenticationRequired") return xmlError(res, 401, "AuthenticationRequired", "Authentication required.", detail)
  return xmlError(res, 400, code, "Invalid argument.", detail)
}

const put = async (req: IncomingMessage, res: ServerResponse, ctx: XmlApiContext, bucket: string, name: string) => {
  const condition = req.headers["x-goog-if-generation-match"]
  const preconditions = { ifGenerationMatch: typeof condition === "string" ? condition : null }
  const early = ctx.blobs.check(bucket, name, preconditions)
  if (early === "noSuchBucket") return answerEarly(req, () => xmlError(res, 404, "NoSuchBucket", "The specified bucket does not exist."))
  if (early === "conditionNotMet") return answerEarly(req, () => xmlError(res, 412, ...PRECONDITION))
  let received
  try {
    received = await ctx.blobs.receive(req)
  } catch {
    return // the client went away mid-upload: nothing is stored
  }
  const contentType = String(req.headers["content-type"] ?? "application/octet-stream")
  const result = ctx.blobs.commit(bucket, name, received, contentType, preconditions)
  if (!result.ok) {
    return result.reason === "noSuchBucket"
      ? xmlError(res, 404, "NoSuchBucket", "The specified bucket does not exist.")
      : xmlError(res, 412, ...PRECONDITION)
  }
  res.writeHead(200, {
    etag: `"${Buffer.from(result.blob.md5, "base64").toString("hex")}"`,
    "x-goog-generation": result.blob.generation,
    "x-goog-hash": `md5=${result.blob.md5}`,
    "content-length": "0",
  })
  res.end()
}

const get = async (req: IncomingMessage, res: ServerResponse, ctx: XmlApiContext, bucket: string, name: string, url: URL) => {
  if (!ctx.blobs.hasBucket(bucket)) return xmlError(res, 404, "NoSuchBucket", "The specified bucket does not exist.")
  const blob = ctx.blobs.get(bucket, name)
  if (blob === undefined) return xmlError(res, 404, "NoSuchKey", "The specified key does not exist.", `No such object: ${bucket}/${name}`)
  const overrides: Record<string, string> = {}
  const disposition = url.searchParams.get("response-content-disposition")
  const type = url.searchParams.get("response-content-type")
  if (disposition !== null) overrides["content-disposition"] = disposition
  if (type !== null) overrides["content-type"] = type
  await sendBlob(req, res, blob, overrides, () => xmlError(res, 416, "InvalidRange", "The requested range cannot be satisfied."))
}

/** Serves a signed-URL request for `/{bucket}/{object}`. */
export const handleXmlApi = async (req: IncomingMessage, res: ServerResponse, url: URL, ctx: XmlApiContext): Promise<void> => {
  const [, rawBucket = "", ...rawName] = url.pathname.split("/")
  let bucket: string
  let name: string
  try {
    bucket = decodeURIComponent(rawBucket)
    name = rawName.map(decodeURIComponent).join("/")
  } catch {
    return answerEarly(req, () => xmlError(res, 400, "InvalidURI", "Couldn't parse the specified URI."))
  }
  if (bucket === "" || name === "") return answerEarly(req, () => xmlError(res, 400, "InvalidURI", "This test double serves objects only."))
  const verdict = verifyV4(
    { method: req.method ?? "", url, headers: headersOf(req) },
    { now: ctx.now(), publicKeyFor: ctx.publicKeyFor, hostForSigning: hostWithoutPort },
  )
  if (!verdict.ok) return answerEarly(req, () => verdictError(res, verdict.code, verdict.detail))
  if (req.method === "PUT") return put(req, res, ctx, bucket, name)
  if (req.method === "GET" || req.method === "HEAD") return get(req, res, ctx, bucket, name, url)
  answerEarly(req, () => xmlError(res, 405, "MethodNotAllowed", "The specified method is not allowed against this resource."))
}
