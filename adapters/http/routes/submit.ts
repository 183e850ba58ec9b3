import { Effect } from "effect"
import { ArtifactTooLarge, SignInRequired } from "../../../domain/errors.ts"
import { submitPackage } from "../../../domain/submission/SubmitPackage.ts"
import { UploadTokens } from "../../../ports/UploadTokens.ts"
import { bearerPrincipal as credentialPrincipal, bearerTokenOf } from "../auth.ts"
import { admitPeopleOnly } from "../credentialAccess.ts"
import { receiveSubmission, type SubmissionLimits } from "../multipart/receiveSubmission.ts"
import { SubmissionOk } from "../openapi/schemas.ts"
import { json } from "../respond.ts"
import type { Route, RouteContext } from "../route.ts"
import { defineRoute } from "../routeInput.ts"

export { DEFAULT_SUBMISSION_LIMITS, type SubmissionLimits } from "../multipart/receiveSubmission.ts"

/** Multipart framing and the manifest on top of the largest package: a Content-Length above this cannot fit. */
const FRAMING_ALLOWANCE_BYTES = 1024 * 1024

export interface SubmitRouteOptions {
  /** Path of `{submit_api_url}` on this app, without a trailing slash (default `/submit-api`). */
  readonly basePath: string
  readonly limits: SubmissionLimits
  /** The pages' origin, when the submit URL is on another origin: CORS for this route only. */
  readonly corsOrigin: string | null
  /** Read the body from Node's IncomingMessage when served by Node (default true; see nodeBody.ts). */
  readonly rawNodeBody?: boolean
}

/**
 * Spec §4.6 and §5.5: a Bearer token is required, an access token from the identity provider or an upload token the
 * service issued to its own submit page. A session cookie alone is not enough.
 */
const bearerPrincipal = Effect.fnUntraced(function*(ctx: RouteContext) {
  const token = bearerTokenOf(ctx.request.headers.get("authorization"))
  if (token === null) return yield* new SignInRequired({ reason: "This endpoint needs 'Authorization: Bearer <access token>'" })
  const principal = yield* credentialPrincipal(token).pipe(
    Effect.catchTag("SignInRequired", (refused) =>
      UploadTokens.use((uploads) => uploads.verify(token)).pipe(Effect.catchTag("SignInRequired", () => Effect.fail(refused)))),
  )
  if (principal.credential !== undefined) yield* (ctx.auth.admit ?? admitPeopleOnly)(principal)
  ctx.setUser(principal.userId)
  return principal
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
  // Declared for its typed error list: the handler reads the multipart body itself, streamed (receiveSubmission), and
  // decodes its text parts with the domain's parsers (parseManifest, parsePublishMode).
  const submit = defineRoute({
    method: "POST",
    path,
    okEnvelope: true,
    headers: cors,
    doc: {
      summary: "Submit a package and its manifest in one multipart request; the blocking scanner runs before anything is recorded",
      access: "bearer",
      credentialScopes: ["submit"],
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
        "GameNotFoundOrForbidden", "VersionExists", "SlugTaken", "RateLimited", "TooManyUploads", "InsufficientStorage", "StorageNotConfigured",
        "SignInRequired",
      ],
    },
    handle: Effect.fnUntraced(function*(ctx: RouteContext) {
      // Refused before a byte of the body is read, in this order: the caller, a declared size that cannot fit, the
      // account's concurrent uploads (a slot held until the package is checked), then its submit budget.
      const principal = yield* bearerPrincipal(ctx)
      const declared = Number(ctx.request.headers.get("content-length") ?? Number.NaN)
      if (declared > options.limits.maxPckBytes + FRAMING_ALLOWANCE_BYTES) {
        return yield* new ArtifactTooLarge({ sizeBytes: declared, limitBytes: options.limits.maxPckBytes })
      }
      yield* ctx.uploads.take(principal.userId)
      // Budget before body: submitPackage reserves one submission from the account's budget and only then runs
      // `receive`, so a spent budget is answered 429 before the body is read; any later failure gives it back.
      const receive = receiveSubmission(ctx.request, options.limits, { rawNodeBody: options.rawNodeBody ?? true })
      const accepted = yield* submitPackage(principal, receive)
      return json(200, { ok: true, ...accepted, scan: { ...accepted.scan, findings: ctx.withDocsUrls(accepted.scan.findings) } })
    }, Effect.scoped),
  })
  if (options.corsOrigin === null) return [submit]
  return [submit, { method: "OPTIONS", path, headers: cors, handle: () => Effect.succeed(new Response(null, { status: 204 })) }]
}
