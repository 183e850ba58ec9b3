import { Effect } from "effect"
import { type Principal, requireAdmin } from "../../../domain/auth/Principal.ts"
import type { DomainError } from "../../../domain/errors.ts"
import { authenticate } from "../auth.ts"
import { readSmallBody } from "../body.ts"
import { ERROR_TABLE } from "../errorTable.ts"
import type { AppServices, RouteContext } from "../route.ts"
import { html } from "./html.ts"
import { errorPage, redirect } from "./layout.ts"

/** A path of this site to return to after signing in; anything else (other hosts, `//x`, `/\x`) becomes `fallback`. */
export const safeReturnTo = (raw: string | null, fallback = "/creator"): string => {
  if (raw === null || raw.length > 512 || !/^\/(?![/\\])[\x21-\x7e]*$/.test(raw)) return fallback
  return raw
}

export const isSecure = (ctx: RouteContext): boolean => ctx.baseUrl().startsWith("https://")

/** Form posts that change state must come from the service's own pages (browsers always send Origin on POST). */
export const fromOwnOrigin = (ctx: RouteContext): boolean => ctx.request.headers.get("origin") === ctx.auth.ownOrigin()

/** The signed-in person (Bearer or session cookie), recorded for the request log; null when nobody is signed in. */
export const currentUser = (ctx: RouteContext) =>
  Effect.tap(authenticate(ctx.request, ctx.auth), (principal) => Effect.sync(() => principal !== null && ctx.setUser(principal.userId)))

/** Sends a visitor who is not signed in to the sign-in, to come back to this page afterwards. */
export const signInFirst = (ctx: RouteContext): Response => {
  const url = new URL(ctx.request.url)
  return redirect(`/auth/login?return_to=${encodeURIComponent(safeReturnTo(url.pathname + url.search))}`)
}

/** Reads a small url-encoded form (sign-in), refusing bodies above `limitBytes` and bodies that stall. */
export const readForm = (request: Request, limitBytes = 4096) =>
  Effect.promise(async (): Promise<URLSearchParams | null> => {
    if (Number(request.headers.get("content-length") ?? "0") > limitBytes) return null
    const bytes = await readSmallBody(request, limitBytes)
    return bytes === "too_large" || "timeout" in bytes ? null : new URLSearchParams(new TextDecoder().decode(bytes))
  })

/**
 * Runs a page: the signed-in caller (or a sign-in redirect), then the page itself. Domain failures become pages in the
 * site's frame: 404 for anything not found or not allowed, 503 when a dependency is down.
 */
export const signedInPage = <E extends DomainError>(
  ctx: RouteContext,
  render: (principal: Principal) => Effect.Effect<Response, E, AppServices>,
): Effect.Effect<Response, DomainError, AppServices> =>
  Effect.gen(function*() {
    const principal = yield* currentUser(ctx)
    if (principal === null) return signInFirst(ctx)
    return yield* render(principal).pipe(Effect.catch((error: DomainError) => Effect.succeed(domainErrorPage(error, principal))))
  }).pipe(Effect.catch((error: DomainError) => Effect.succeed(domainErrorPage(error, null))))

/**
 * Runs an administrator's page: the signed-in caller (or a sign-in redirect), then the one administrator rule
 * (requireAdmin): anyone else gets the 404 page, as for a page that does not exist.
 */
export const adminPage = <E extends DomainError>(
  ctx: RouteContext,
  render: (principal: Principal) => Effect.Effect<Response, E, AppServices>,
): Effect.Effect<Response, DomainError, AppServices> => signedInPage(ctx, (principal) => Effect.andThen(requireAdmin(principal), render(principal)))

/** Runs a page anyone may see; the signed-in person, if any, only changes the frame. Failures as in signedInPage. */
export const publicPage = <E extends DomainError>(
  ctx: RouteContext,
  render: (principal: Principal | null) => Effect.Effect<Response, E, AppServices>,
): Effect.Effect<Response, DomainError, AppServices> =>
  Effect.gen(function*() {
    const principal = yield* currentUser(ctx).pipe(Effect.orElseSucceed(() => null))
    return yield* render(principal).pipe(Effect.catch((error: DomainError) => Effect.succeed(domainErrorPage(error, principal))))
  })

/** The catalog's query parameters (limit, cursor, q) as the request carried them. */
export const catalogParamsOf = (request: Request) => {
  const query = new URL(request.url).searchParams
  return { limit: query.get("limit"), cursor: query.get("cursor"), q: query.get("q") }
}

export const notFoundPage = (principal: Principal | null): Response =>
  errorPage(404, "Page not found", "There is no such page, or it is not yours to see.", principal)

export const domainErrorPage = (error: DomainError, principal: Principal | null): Response => {
  const [status] = ERROR_TABLE[error._tag]
  if (status === 404) return notFoundPage(principal)
  if (error._tag === "SignInRequired") return errorPage(401, "Sign-in required", html`${error.detail} <a href="/auth/login">Sign in</a>`, principal)
  if (status >= 500) return errorPage(503, "Temporarily unavailable", "The service cannot answer right now; reload the page in a moment.", principal)
  return errorPage(status, "Something is wrong with this request", error.detail, principal)
}
