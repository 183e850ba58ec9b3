// The JSON API calls @google-cloud/storage makes for the object store: object metadata, `?alt=media` downloads with
// Range, DELETE, list, rewriteTo/copyTo, and resumable uploads (session POST, then the streaming PUT the library
// sends as `Content-Range: bytes 0-*/*`, which completes the object when the request body ends cleanly).
import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Blob, Blobs, CommitResult, Preconditions } from "./blobs.ts"
import { json, jsonError, sendBlob } from "./http.ts"

interface UploadSession {
  readonly bucket: string
  readonly name: string
  readonly contentType: string
  readonly preconditions: Preconditions
  done: Blob | null
}

export interface JsonApiContext {
  readonly blobs: Blobs
  readonly baseUrl: () => string
  readonly sessions: Map<string, UploadSession>
}

const PRECONDITION_MESSAGE = "At least one of the pre-conditions you specified did not hold."

export const objectResource = (blob: Blob, baseUrl: string) => {
  const encoded = encodeURIComponent(blob.name)
  const time = blob.created.toISOString()
  return {
    kind: "storage#object",
    id: `${blob.bucket}/${blob.name}/${blob.generation}`,
    selfLink: `${baseUrl}/storage/v1/b/${blob.bucket}/o/${encoded}`,
    mediaLink: `${baseUrl}/download/storage/v1/b/${blob.bucket}/o/${encoded}?generation=${blob.generation}&alt=media`,
    name: blob.name,
    bucket: blob.bucket,
    generation: blob.generation,
    metageneration: "1",
    contentType: blob.contentType,
    storageClass: "STANDARD",
    size: String(blob.size),
    md5Hash: blob.md5,
    etag: `C${blob.generation.slice(-8)}=`,
    timeCreated: time,
    updated: time,
    timeStorageClassUpdated: time,
  }
}

const readText = async (req: IncomingMessage): Promise<string> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

const noSuchBucket = (res: ServerResponse) => jsonError(res, 404, "notFound", "The specified bucket does not exist.")
const noSuchObject = (res: ServerResponse, bucket: string, name: string) => jsonError(res, 404, "notFound", `No such object: ${bucket}/${name}`)

const preconditionsOf = (query: URLSearchParams): Preconditions => ({ ifGenerationMatch: query.get("ifGenerationMatch") })

const answerCommit = (res: ServerResponse, ctx: JsonApiContext, result: CommitResult, onDone?: (blob: Blob) => void) => {
  if (result.ok) {
    onDone?.(result.blob)
    return json(res, 200, objectResource(result.blob, ctx.baseUrl()))
  }
  return result.reason === "noSuchBucket" ? noSuchBucket(res) : jsonError(res, 412, "conditionNotMet", PRECONDITION_MESSAGE)
}

/** The object a request names, honouring `generation` and `ifGenerationMatch`; answers the error itself when there is none. */
const lookup = (res: ServerResponse, ctx: JsonApiContext, bucket: string, name: string, query: URLSearchParams): Blob | null => {
  if (!ctx.blobs.hasBucket(bucket)) {
    noSuchBucket(res)
    return null
  }
  const blob = ctx.blobs.get(bucket, name)
  const generation = query.get("generation")
  if (blob === undefined || (generation !== null && generation !== blob.generation)) {
    noSuchObject(res, bucket, name)
    return null
  }
  const match = query.get("ifGenerationMatch")
  if (match !== null && match !== blob.generation) {
    jsonError(res, 412, "conditionNotMet", PRECONDITION_MESSAGE)
    return null
  }
  return blob
}

const listObjects = (res: ServerResponse, ctx: JsonApiContext, bucket: string, query: URLSearchParams) => {
  if (!ctx.blobs.hasBucket(bucket)) return noSuchBucket(res)
  const prefix = query.get("prefix") ?? ""
  const max = Math.min(Number(query.get("maxResults") ?? "1000") || 1000, 1000)
  const after = query.get("pageToken") ?? ""
  const matching = ctx.blobs.list(bucket).filter((b) => b.name.startsWith(prefix) && b.name > after)
  const page = matching.slice(0, max)
  const body: Record<string, unknown> = { kind: "storage#objects", items: page.map((b) => objectResource(b, ctx.baseUrl())) }
  if (matching.length > max) body["nextPageToken"] = page.at(-1)!.name
  return json(res, 200, body)
}

const rewrite = async (res: ServerResponse, ctx: JsonApiContext, from: [string, string], to: [string, string], query: URLSearchParams) => {
  const source = lookup(res, ctx, from[0], from[1], new URLSearchParams(query.has("sourceGeneration") ? { generation: query.get("sourceGeneration")! } : {}))
  if (source === null) return
  const preconditions = preconditionsOf(query)
  const early = ctx.blobs.check(to[0], to[1], preconditions)
  if (early === "noSuchBucket") return noSuchBucket(res)
  if (early === "conditionNotMet") return jsonError(res, 412, "conditionNotMet", PRECONDITION_MESSAGE)
  const received = await ctx.blobs.duplicate(source).catch(() => null)
  if (received === null) return noSuchObject(res, from[0], from[1])
  const result = ctx.blobs.commit(to[0], to[1], received, source.contentType, preconditions)
  if (!result.ok) return answerCommit(res, ctx, result)
  const resource = objectResource(result.blob, ctx.baseUrl())
  return json(res, 200, { kind: "storage#rewriteResponse", totalBytesRewritten: resource.size, objectSize: resource.size, done: true, resource })
}

const startResumable = async (req: IncomingMessage, res: ServerResponse, ctx: JsonApiContext, bucket: string, query: URLSearchParams) => {
  let metadata: { name?: string; contentType?: string } = {}
  const text = await readText(req)
  if (text !== "") {
    try {
      metadata = JSON.parse(text)
    } catch {
      return jsonError(res, 400, "parseError", "Parse Error")
    }
  }
  const name = query.get("name") ?? metadata.name
  if (name === undefined || name === "") return jsonError(res, 400, "required", "Required")
  const preconditions = preconditionsOf(query)
  // GCS checks preconditions when the session starts, and again when the upload completes.
  const early = ctx.blobs.check(bucket, name, preconditions)
  if (early === "noSuchBucket") return noSuchBucket(res)
  if (early === "conditionNotMet") return jsonError(res, 412, "conditionNotMet", PRECONDITION_MESSAGE)
  const id = randomUUID()
  const contentType = String(req.headers["x-upload-content-type"] ?? metadata.contentType ?? "application/octet-stream")
  ctx.sessions.set(id, { bucket, name, contentType, preconditions, done: null })
  const location = `${ctx.baseUrl()}/upload/storage/v1/b/${bucket}/o?uploadType=resumable&name=${encodeURIComponent(name)}&upload_id=${id}`
  res.writeHead(200, { location, "content-length": "0" })
  res.end()
}

const continueResumable = async (req: IncomingMessage, res: ServerResponse, ctx: JsonApiContext, id: string) => {
  const session = ctx.sessions.get(id)
  if (session === undefined) return jsonError(res, 404, "notFound", "No such upload session.")
  const range = /^bytes (\*|(\d+)-(\d+|\*))\/(\*|\d+)$/.exec(String(req.headers["content-range"] ?? "bytes 0-*/*"))
  if (range === null) return jsonError(res, 400, "invalid", "Invalid Content-Range.")
  if (range[1] === "*") {
    // A status query: nothing of an interrupted request is kept here, so an unfinished session has no bytes.
    req.resume()
    if (session.done !== null) return json(res, 200, objectResource(session.done, ctx.baseUrl()))
    res.writeHead(308, { "content-length": "0" })
    return void res.end()
  }
  const total = range[4] === "*" ? null : Number(range[4])
  const last = range[3] === "*" ? null : Number(range[3])
  if (range[2] !== "0" || (last !== null && (total === null || last + 1 !== total))) {
    req.resume()
    return jsonError(res, 400, "invalid", "This test double accepts single-request resumable uploads only (Content-Range bytes 0-*/*).")
  }
  let received
  try {
    received = await ctx.blobs.receive(req)
  } catch {
    return // the client went away: the session stays open with no bytes, nothing is stored
  }
  if (total !== null && received.size !== total) {
    ctx.blobs.discard(received)
    return jsonError(res, 400, "invalid", `Received ${received.size} bytes, Content-Range announced ${total}.`)
  }
  const result = ctx.blobs.commit(session.bucket, session.name, received, session.contentType, session.preconditions)
  if (!result.ok) ctx.sessions.delete(id)
  answerCommit(res, ctx, result, (blob) => (session.done = blob))
}

const segment = (raw: string | undefined): string | null => {
  if (raw === undefined) return null
  try {
    return decodeURIComponent(raw)
  } catch {
    return null
  }
}

const uploads = async (req: IncomingMessage, res: ServerResponse, ctx: JsonApiContext, bucket: string, q: URLSearchParams) => {
  if (req.method === "POST" && q.get("uploadType") === "resumable") return startResumable(req, res, ctx, bucket, q)
  if (req.method === "PUT" && q.has("upload_id")) return continueResumable(req, res, ctx, q.get("upload_id")!)
  req.resume()
  jsonError(res, 400, "invalid", "This test double supports uploadType=resumable only.")
}

/** /storage/v1/b/{bucket}/o[/{object}[/rewriteTo|copyTo/b/{bucket}/o/{object}]] */
const objects = async (req: IncomingMessage, res: ServerResponse, ctx: JsonApiContext, parts: ReadonlyArray<string>, q: URLSearchParams) => {
  const bucket = segment(parts[3])
  const name = segment(parts[5])
  if (bucket === null || (parts.length > 5 && name === null)) return jsonError(res, 400, "invalid", "Invalid path.")
  if (parts.length === 5 && req.method === "GET") return listObjects(res, ctx, bucket, q)
  if (parts.length === 6 && name !== null && (req.method === "GET" || req.method === "DELETE")) {
    const blob = lookup(res, ctx, bucket, name, q)
    if (blob === null) return
    if (req.method === "DELETE") {
      ctx.blobs.delete(bucket, name)
      res.writeHead(204)
      return void res.end()
    }
    if (q.get("alt") !== "media") return json(res, 200, objectResource(blob, ctx.baseUrl()))
    return sendBlob(req, res, blob, {}, () => jsonError(res, 416, "requestedRangeNotSatisfiable", "Request range not satisfiable"))
  }
  const copy = parts.length === 11 && (parts[6] === "rewriteTo" || parts[6] === "copyTo") && parts[7] === "b" && parts[9] === "o"
  if (copy && req.method === "POST" && name !== null) {
    req.resume()
    const toBucket = segment(parts[8])
    const toName = segment(parts[10])
    if (toBucket === null || toName === null) return jsonError(res, 400, "invalid", "Invalid path.")
    return rewrite(res, ctx, [bucket, name], [toBucket, toName], q)
  }
  jsonError(res, 404, "notFound", `Not found: ${req.method} /${parts.join("/")}`)
}

/** Serves /storage/v1/… and /upload/storage/v1/…; false when the path is not one of them. */
export const handleJsonApi = async (req: IncomingMessage, res: ServerResponse, url: URL, ctx: JsonApiContext): Promise<boolean> => {
  const parts = url.pathname.split("/").slice(1)
  if (parts.length === 6 && parts.slice(0, 4).join("/") === "upload/storage/v1/b" && parts[5] === "o") {
    const bucket = segment(parts[4])
    if (bucket === null) jsonError(res, 400, "invalid", "Invalid path.")
    else await uploads(req, res, ctx, bucket, url.searchParams)
    return true
  }
  if (parts.slice(0, 3).join("/") !== "storage/v1/b" || parts[4] !== "o") return false
  await objects(req, res, ctx, parts, url.searchParams)
  return true
}
