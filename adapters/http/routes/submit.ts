import { Effect, Schema } from "effect"
import {
  ArtifactTooLarge,
  InsufficientStorage,
  InvalidManifest,
  InvalidRequest,
  MissingPck,
  NotAPckFile,
  SignInRequired,
  Unavailable,
  UploadTimedOut,
} from "../../../domain/errors.ts"
import { decodeManifest } from "../../../domain/manifest/decodeManifest.ts"
import { MULTIPART_MAX_BYTES } from "../../../domain/release/Limits.ts"
import { tempObjectKey } from "../../../domain/release/ObjectKey.ts"
import { ScanReport } from "../../../domain/scan/ScanReport.ts"
import { parseManifest, type ReceivedUpload, submitPackage } from "../../../domain/submission/SubmitPackage.ts"
import { Identity } from "../../../ports/Identity.ts"
import { Ids } from "../../../ports/Ids.ts"
import { ObjectStorage } from "../../../ports/ObjectStorage.ts"
import { Sha256Hasher } from "../../../ports/Sha256Hasher.ts"
import { UploadTokens } from "../../../ports/UploadTokens.ts"
import { readSubmission, type SinkResult, type SubmissionLimits, type SubmissionRead } from "../multipart/readSubmission.ts"
import { json } from "../respond.ts"
import type { Route, RouteContext } from "../route.ts"

export const DEFAULT_SUBMISSION_LIMITS: SubmissionLimits = {
  maxPckBytes: MULTIPART_MAX_BYTES,
  maxManifestBytes: 64 * 1024,
  idleTimeoutMs: 60_000,
  deadlineMs: 2 * 3600_000,
}

/** Multipart framing and the manifest on top of the largest package: a Content-Length above this cannot fit. */
const FRAMING_ALLOWANCE_BYTES = 1024 * 1024

export interface SubmitRouteOptions {
  /** Path of `{submit_api_url}` on this app, without a trailing slash (default `/submit-api`). */
  readonly basePath: string
  readonly limits: SubmissionLimits
  /** The pages' origin, when the submit URL is on another origin: CORS for this route only. */
  readonly corsOrigin: string | null
}

/**
 * Spec §4.6 and §5.5: a Bearer token is required, an access token from the identity provider or an upload token the
 * service issued to its own submit page. A session cookie alone is not enough.
 */
const bearerPrincipal = Effect.fnUntraced(function*(ctx: RouteContext) {
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(ctx.request.headers.get("authorization") ?? "")
  if (match === null) return yield* new SignInRequired({ reason: "This endpoint needs 'Authorization: Bearer <access token>'" })
  const token = match[1]!
  const principal = yield* Identity.use((identity) => identity.verify(token)).pipe(
    Effect.catchTag("SignInRequired", (refused) =>
      UploadTokens.use((uploads) => uploads.verify(token)).pipe(Effect.catchTag("SignInRequired", () => Effect.fail(refused)))),
  )
  ctx.setUser(principal.userId)
  return principal
})

/** What the reader's outcome means for the submission. */
const receivedOrRefused = (read: SubmissionRead, limits: SubmissionLimits) => {
  switch (read.kind) {
    case "ok":
      return Effect.succeed<ReceivedUpload>({ pck: read.pck, manifestText: read.manifestText })
    case "missing_pck":
      return Effect.fail(new MissingPck({}))
    case "not_a_pck":
      return Effect.fail(new NotAPckFile({ filename: read.filename }))
    case "manifest_rejected":
      return Effect.flatMap(parseManifest(read.manifestText), () =>
        Effect.fail(new InvalidManifest({ fields: ["manifest"], problem: "The manifest was refused." })))
    case "manifest_too_large":
      return Effect.fail(new InvalidManifest({ fields: ["manifest"], problem: `The manifest part is larger than ${limits.maxManifestBytes} bytes.` }))
    case "too_large":
      return Effect.fail(new ArtifactTooLarge({ sizeBytes: limits.maxPckBytes + 1, limitBytes: limits.maxPckBytes }))
    case "timeout":
      return Effect.fail(new UploadTimedOut({ what: read.what }))
    case "malformed":
      return Effect.fail(new InvalidRequest({ problems: [`body: ${read.detail}`] }))
    case "aborted":
      return Effect.fail(new InvalidRequest({ problems: ["body: the upload was cut off before its end; nothing was kept"] }))
    case "storage_full":
      return Effect.fail(new InsufficientStorage({}))
    case "unavailable":
      return Effect.fail(new Unavailable({ dependency: "storage", reason: "writing the uploaded package failed" }))
  }
}

/** Streams the request into a temporary object while hashing it (nothing is buffered beyond small chunks). */
const receive = Effect.fnUntraced(function*(ctx: RouteContext, limits: SubmissionLimits) {
  const storage = yield* ObjectStorage
  const hasher = yield* Sha256Hasher
  const tempKey = tempObjectKey(yield* (yield* Ids).next("up"))
  const run = Effect.runPromiseWith(yield* Effect.context<never>())
  const read = yield* Effect.promise(() =>
    readSubmission(ctx.request, {
      limits,
      tempKey,
      hasher: () => hasher.create(),
      acceptManifest: (text) => {
        try {
          return decodeManifest(JSON.parse(text.replace(/^\ufeff/, "")))._tag === "Valid"
        } catch {
          return false
        }
      },
      sink: {
        write: (key, body, maxBytes) =>
          // Hashed on the way in and only sampled by the scanner afterwards: no reason to pass it through the page cache.
          run(storage.put(key, body, { maxBytes, bypassCache: true }).pipe(
            Effect.as<SinkResult>({ ok: true }),
            Effect.catch((e) =>
              Effect.succeed<SinkResult>({
                ok: false,
                reason: e._tag === "ObjectTooLarge"
                  ? "too_large"
                  : e._tag === "UploadAborted"
                  ? "aborted"
                  : e._tag === "StorageFull"
                  ? "storage_full"
                  : "unavailable",
              })
            ),
          )),
        discard: (key) => run(storage.delete(key).pipe(Effect.ignore)),
      },
    })
  )
  return yield* receivedOrRefused(read, limits)
})

const SubmissionOk = Schema.Struct({
  ok: Schema.Literal(true),
  gameId: Schema.String,
  submissionId: Schema.String,
  status: Schema.Literal("review"),
  scan: ScanReport,
})

export const submitRoutes = (options: SubmitRouteOptions): ReadonlyArray<Route> => {
  const path = `${options.basePath}/games/submit`
  const cors: Record<string, string> = options.corsOrigin === null ? {} : {
    "access-control-allow-origin": options.corsOrigin,
    "access-control-allow-methods": "POST",
    "access-control-allow-headers": "authorization, content-type",
    "access-control-max-age": "600",
    vary: "origin",
  }
  const submit: Route = {
    method: "POST",
    path,
    okEnvelope: true,
    headers: cors,
    doc: {
      summary: "Submit a package and its manifest in one multipart request; the blocking scanner runs before anything is recorded",
      access: "bearer",
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              required: ["pck", "manifest"],
              properties: {
                pck: { type: "string", format: "binary", description: "the .pck (at most 2 GiB)" },
                manifest: { description: "manifest.json: a file part with content type application/json, or a text field holding JSON" },
              },
            },
          },
        },
      },
      success: [200, SubmissionOk],
      errors: [
        "InvalidRequest", "MissingPck", "NotAPckFile", "InvalidManifest", "StaticAnalysisFailed", "ArtifactTooLarge", "UploadTimedOut",
        "GameNotFoundOrForbidden", "VersionExists", "RateLimited", "TooManyUploads", "InsufficientStorage", "StorageNotConfigured",
      ],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      const principal = yield* bearerPrincipal(ctx)
      const declared = Number(ctx.request.headers.get("content-length") ?? Number.NaN)
      if (declared > options.limits.maxPckBytes + FRAMING_ALLOWANCE_BYTES) {
        return yield* new ArtifactTooLarge({ sizeBytes: declared, limitBytes: options.limits.maxPckBytes })
      }
      // One slot of the account's concurrent uploads, held while the body is read and the package checked.
      yield* ctx.uploads.take(principal.userId)
      const accepted = yield* submitPackage(principal, receive(ctx, options.limits))
      return json(200, { ok: true, ...accepted })
    }, Effect.scoped),
  }
  if (options.corsOrigin === null) return [submit]
  return [submit, { method: "OPTIONS", path, headers: cors, handle: () => Effect.succeed(new Response(null, { status: 204 })) }]
}
