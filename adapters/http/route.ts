import { Effect, type Schema } from "effect"
import { requireAdmin } from "../../domain/auth/Principal.ts"
import type { DomainError } from "../../domain/errors.ts"
import type { CredentialScope } from "../../domain/credentials/Credential.ts"
import type { ApiKeyStore } from "../../ports/ApiKeyStore.ts"
import type { BudgetLedger } from "../../ports/BudgetLedger.ts"
import type { CiIdentity } from "../../ports/CiIdentity.ts"
import type { PublishTokens } from "../../ports/PublishTokens.ts"
import type { TrustedPublisherStore } from "../../ports/TrustedPublisherStore.ts"
import type { Clock } from "../../ports/Clock.ts"
import type { GameStore } from "../../ports/GameStore.ts"
import type { GameViews } from "../../ports/GameViews.ts"
import type { Identity } from "../../ports/Identity.ts"
import type { Ids } from "../../ports/Ids.ts"
import type { ObjectStorage } from "../../ports/ObjectStorage.ts"
import type { PagedLists } from "../../ports/PagedLists.ts"
import type { Catalog } from "../../ports/Catalog.ts"
import type { CatalogPages } from "../cache/CatalogPages.ts"
import type { ReleaseStore } from "../../ports/ReleaseStore.ts"
import type { ReviewNotifier } from "../../ports/ReviewNotifier.ts"
import type { PackScanner } from "../../ports/PackScanner.ts"
import type { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import type { PackFiles } from "../../ports/PackFiles.ts"
import type { ReleaseEntryStore } from "../../ports/ReleaseEntryStore.ts"
import type { ScanStore } from "../../ports/ScanStore.ts"
import type { SecretRandom } from "../../ports/SecretRandom.ts"
import type { SessionStore } from "../../ports/SessionStore.ts"
import type { Sha256Hasher } from "../../ports/Sha256Hasher.ts"
import type { SubmissionStore } from "../../ports/SubmissionStore.ts"
import type { UploadTokens } from "../../ports/UploadTokens.ts"
import type { Timeline } from "../../ports/Timeline.ts"
import type { WebhookSubscriptions } from "../../ports/WebhookSubscriptions.ts"
import { type AuthContext, requirePrincipal } from "./auth.ts"
import type { BodyTimeouts } from "./bodyTimeouts.ts"
import type { UploadSlots } from "./uploadSlots.ts"
import type { StatusAndCode } from "./errorTable.ts"
import type { DecodedInput, RouteInputSpec } from "./routeInput.ts"

/** Every port the HTTP app needs; a layer providing them all makes an app. */
export type AppServices =
  | GameStore
  | GameViews
  | ReleaseStore
  | BudgetLedger
  | ObjectStorage
  | Identity
  | Clock
  | Ids
  | ReviewNotifier
  | Sha256Hasher
  | ScanStore
  | SessionStore
  | SubmissionStore
  | PackScanner
  | UploadTokens
  | ReviewGateStore
  | PackFiles
  | ReleaseEntryStore
  | PagedLists
  | Catalog
  | CatalogPages
  | Timeline
  | WebhookSubscriptions
  | ApiKeyStore
  | SecretRandom
  | TrustedPublisherStore
  | CiIdentity
  | PublishTokens

export interface RouteContext {
  readonly request: Request
  readonly params: Readonly<Record<string, string>>
  readonly auth: AuthContext
  /** The service's public base URL (no trailing slash). */
  readonly baseUrl: () => string
  readonly requestId: string
  /** Records who made the request, for the request log. */
  readonly setUser: (userId: string) => void
  /** Upload bodies' idle timeout and deadline (JSON bodies: the idle period in all). */
  readonly bodyTimeouts: BodyTimeouts
  /** Concurrent uploads per account on this instance. */
  readonly uploads: UploadSlots
  /** A declared route's input, decoded by App.ts before its handler runs (routeInput.ts); absent for other routes. */
  readonly decoded?: DecodedInput
  /** Findings as answered: each with `docsUrl`, its page under BASE_URL/docs/rules/ (computed, never stored). */
  readonly withDocsUrls: <F extends { readonly rule: string; readonly pattern: string }>(findings: ReadonlyArray<F>) => Array<F & { readonly docsUrl: string }>
}

/** What the OpenAPI document says about a route; generated, so it cannot drift from the routes. */
export interface RouteDoc {
  readonly summary: string
  /**
   * Who may call it: `public` needs nothing; `signedIn` a Bearer token or session cookie; `admin` an administrator
   * (the app checks it before the handler runs: 401 without credentials, 404 not_found for anyone else); `bearer` and
   * `session` only a Bearer token, or only the session cookie of the service's own pages (the handler checks which).
   */
  readonly access: "public" | "signedIn" | "bearer" | "session" | "admin"
  /**
   * Which scopes of an API key or a trusted publisher's token may call the route (adapters/http/credentialAccess.ts);
   * absent: only a person's own token or session. A game in the path must be one the credential covers.
   */
  readonly credentialScopes?: ReadonlyArray<CredentialScope>
  /** `all`: only credentials for all games (the route may create a game). */
  readonly credentialGames?: "all"
  readonly request?: Schema.Top
  /** The JSON body may be absent or empty (it reads as `{}`). */
  readonly requestOptional?: true
  /** A request body that is not JSON, as an OpenAPI requestBody object (the multipart endpoint). */
  readonly requestBody?: Record<string, unknown>
  readonly success: readonly [status: number, schema: Schema.Top | null]
  /** The domain errors this endpoint can answer (auth, body and dependency failures are added from the route). */
  readonly errors: ReadonlyArray<DomainError["_tag"]>
}

export interface Route {
  readonly method: "GET" | "POST" | "PUT" | "DELETE" | "OPTIONS"
  readonly path: string
  /** API routes document themselves (GET /openapi.json); pages and browser flows have none. */
  readonly doc?: RouteDoc
  /** The endpoint's documented answer when a dependency fails; 503 service_unavailable otherwise. */
  readonly dependencyFailure?: StatusAndCode
  /** Error bodies carry `ok: false` (the multipart endpoint's envelope, spec §4.6). */
  readonly okEnvelope?: true
  /** Headers added to every response of this route, errors included (e.g. CORS). */
  readonly headers?: Readonly<Record<string, string>>
  /** What App.ts decodes before the handler (routes made with `defineRoute`, routeInput.ts). */
  readonly input?: RouteInputSpec
  readonly handle: (ctx: RouteContext) => Effect.Effect<Response, DomainError, AppServices>
  /**
   * An answer ahead of `handle`, for requests memory can answer as they are (a kept catalog page): made once from the
   * app's services, then called synchronously with each request, without the Effect runtime (no fiber, no span); null
   * lets `handle` answer. The request is counted and logged like any other (App.ts).
   */
  readonly shortcut?: Effect.Effect<(request: Request) => Response | null, never, AppServices>
}

/** The signed-in caller (401 otherwise), recorded for the request log. */
export const principalFor = (ctx: RouteContext) =>
  Effect.tap(requirePrincipal(ctx.request, ctx.auth), (principal) => Effect.sync(() => ctx.setUser(principal.userId)))

/**
 * The one administrator guard of `access: "admin"` routes, which App.ts runs before anything else of the route: 401
 * without credentials, 404 not_found for anyone who is not an administrator (domain/auth/Principal.ts's rule).
 */
export const adminCaller = (ctx: RouteContext) => Effect.tap(principalFor(ctx), requireAdmin)
