import { Effect } from "effect"
import type { Principal } from "../../../domain/auth/Principal.ts"
import { Clock } from "../../../ports/Clock.ts"
import { type OidcLogin, OidcLoginError } from "../../identity/OidcLogin.ts"
import { currentUser, fromOwnOrigin, isSecure, readForm, safeReturnTo } from "../pages/common.ts"
import { type Html, html } from "../pages/html.ts"
import { errorPage, htmlResponse, page, redirect } from "../pages/layout.ts"
import { LOGIN_COOKIE, LOGIN_TTL_SECONDS, loginCookieHeader, type LoginStateCodec } from "../pages/loginState.ts"
import type { Route, RouteContext } from "../route.ts"
import { readCookie } from "../session.ts"
import { clearedSessionCookie, endSession, startSession } from "../sessionLifecycle.ts"
import { fromThisMachine } from "../peer.ts"

// Sign-in for people. With an identity provider: /auth/login → the provider (authorization code + PKCE) →
// /auth/callback, which sets the session cookie. Without one (the embedded default): the dev sign-in page.

export type SignInMode =
  | { readonly kind: "dev" }
  /** `login` is null when OIDC verifies API tokens but no browser client (OIDC_CLIENT_ID) is configured. */
  | { readonly kind: "oidc"; readonly login: OidcLogin | null }

export interface AuthRouteOptions {
  readonly signIn: SignInMode
  readonly loginState: LoginStateCodec
}

/** User names the dev sign-in accepts. */
export const DEV_USER_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/

const devSignInRefused = () =>
  errorPage(
    403,
    "Dev sign-in is local only",
    "The dev sign-in answers only on the server's own machine. Sign in from there, use `npm run -s cli -- token` on it, or configure an identity provider (OIDC_JWKS_URL, OIDC_ISSUER, OIDC_AUDIENCE, OIDC_CLIENT_ID).",
  )

const callbackUrl = (ctx: RouteContext) => `${ctx.baseUrl()}/auth/callback`

/**
 * Starts the person's session and sends them on to `location` with its cookie (and `otherCookies`); when the session
 * cannot be recorded (the database is down), a page saying so instead.
 */
const signInAndGo = (ctx: RouteContext, principal: Principal, location: string, otherCookies: ReadonlyArray<string> = []) => {
  ctx.setUser(principal.userId)
  return startSession(ctx.auth, principal, isSecure(ctx)).pipe(
    Effect.map(({ setCookie }) => redirectWithCookies(location, [...otherCookies, setCookie])),
    Effect.catchTag("Unavailable", () => {
      const response = signInProblemPage(503, "The service cannot start your session right now")
      for (const cookie of otherCookies) response.headers.append("set-cookie", cookie)
      return Effect.succeed(response)
    }),
  )
}

/** A redirect setting several cookies (Set-Cookie cannot be folded into one header). */
const redirectWithCookies = (location: string, cookies: ReadonlyArray<string>): Response => {
  const response = redirect(location)
  for (const cookie of cookies) response.headers.append("set-cookie", cookie)
  return response
}

const devSignInPage = (returnTo: string, problem: { readonly user: string; readonly message: string } | null): Html =>
  page({
    title: "Development sign-in",
    principal: null,
    section: "sign-in",
    main: html`<div class="dev-banner" role="note">
  <p><strong>Development sign-in — not for production.</strong> This server runs without an identity provider, so anyone who
  can reach it can sign in as any user, administrators included. Configure OIDC (see docs/pages.md) before exposing it.</p>
</div>
<form method="post" action="/auth/dev" class="stack">
  <input type="hidden" name="return_to" value="${returnTo}">
  ${problem !== null && html`<p class="error" role="alert" id="user-error">${problem.message}</p>`}
  <div class="field">
    <label for="user">User name</label>
    <input id="user" name="user" required maxlength="64" pattern="[A-Za-z0-9._@\\-]{1,64}" autocomplete="username" value="${problem?.user ?? ""}"
      aria-describedby="user-help${problem !== null ? " user-error" : ""}"${problem !== null ? html` aria-invalid="true" autofocus` : ""}>
    <p class="help" id="user-help">Letters, digits, dots, underscores, @ and hyphens; up to 64 characters.</p>
  </div>
  <div class="field checkbox">
    <input type="checkbox" id="admin" name="admin" value="1">
    <label for="admin">Sign in as an administrator</label>
  </div>
  <button type="submit">Sign in</button>
</form>`,
  })

const signInProblemPage = (status: number, message: string): Response =>
  errorPage(status, "Sign-in did not complete", html`${message}. <a href="/auth/login">Try signing in again</a>.`)

export const authRoutes = (options: AuthRouteOptions): ReadonlyArray<Route> => {
  const { signIn, loginState } = options
  const devOnly = signIn.kind === "dev"
  const notFound = () => errorPage(404, "Page not found", "There is no such page.")
  return [
    {
      method: "GET",
      path: "/auth/login",
      handle: Effect.fnUntraced(function*(ctx: RouteContext) {
        const returnTo = safeReturnTo(new URL(ctx.request.url).searchParams.get("return_to"))
        if (signIn.kind === "dev") return redirect(`/auth/dev?return_to=${encodeURIComponent(returnTo)}`)
        const login = signIn.login
        if (login === null) {
          return errorPage(503, "Browser sign-in is not configured", "The operator has not configured a browser client for the identity provider (OIDC_CLIENT_ID). API clients still sign in with their access tokens.")
        }
        const started = yield* Effect.tryPromise({ try: () => login.begin(callbackUrl(ctx), returnTo), catch: (e) => e })
          .pipe(Effect.result)
        if (started._tag === "Failure") {
          return errorPage(503, "Sign-in is unavailable", "The identity provider cannot be reached right now; try again in a moment.")
        }
        const now = yield* Clock.use((clock) => clock.now)
        const sealed = yield* Effect.promise(() => loginState.seal(started.success.pending, now))
        return redirectWithCookies(started.success.url, [loginCookieHeader(sealed, LOGIN_TTL_SECONDS, isSecure(ctx))])
      }),
    },
    {
      method: "GET",
      path: "/auth/callback",
      handle: Effect.fnUntraced(function*(ctx: RouteContext) {
        if (signIn.kind === "dev" || signIn.login === null) return notFound()
        const login = signIn.login
        const clearLogin = loginCookieHeader("", 0, isSecure(ctx))
        const now = yield* Clock.use((clock) => clock.now)
        const cookie = readCookie(ctx.request, LOGIN_COOKIE)
        const pending = cookie === null ? null : yield* Effect.promise(() => loginState.open(cookie, now))
        if (pending === null) {
          const response = signInProblemPage(400, "This sign-in took longer than 10 minutes or was started in another browser")
          response.headers.append("set-cookie", clearLogin)
          return response
        }
        const params = new URL(ctx.request.url).searchParams
        const outcome = yield* Effect.tryPromise({
          try: () => login.complete(params, pending, callbackUrl(ctx)),
          catch: (e) => (e instanceof OidcLoginError ? e : new OidcLoginError("unavailable", "The sign-in could not be completed")),
        }).pipe(Effect.result)
        if (outcome._tag === "Failure") {
          const response = signInProblemPage(outcome.failure.kind === "refused" ? 401 : 503, outcome.failure.message)
          response.headers.append("set-cookie", clearLogin)
          return response
        }
        return yield* signInAndGo(ctx, outcome.success, pending.returnTo, [clearLogin])
      }),
    },
    {
      method: "GET",
      path: "/auth/dev",
      handle: (ctx) =>
        Effect.sync(() =>
          !devOnly
            ? notFound()
            : !fromThisMachine(ctx.request)
            ? devSignInRefused()
            : htmlResponse(200, devSignInPage(safeReturnTo(new URL(ctx.request.url).searchParams.get("return_to")), null))
        ),
    },
    {
      method: "POST",
      path: "/auth/dev",
      handle: Effect.fnUntraced(function*(ctx: RouteContext) {
        if (!devOnly) return notFound()
        if (!fromThisMachine(ctx.request)) return devSignInRefused()
        if (!fromOwnOrigin(ctx)) return errorPage(403, "Sign-in refused", "Sign in from this site's own sign-in page.")
        const form = yield* readForm(ctx.request)
        if (form === null) return errorPage(413, "Sign-in refused", "The form is too large.")
        const returnTo = safeReturnTo(form.get("return_to"))
        const user = (form.get("user") ?? "").trim()
        if (!DEV_USER_PATTERN.test(user)) {
          const message = user === "" ? "Enter a user name." : "Use only letters, digits, dots, underscores, @ and hyphens (at most 64)."
          return htmlResponse(400, devSignInPage(returnTo, { user, message }))
        }
        return yield* signInAndGo(ctx, { userId: user, isAdmin: form.get("admin") === "1" }, returnTo)
      }),
    },
    {
      method: "GET",
      path: "/auth/logout",
      handle: Effect.fnUntraced(function*(ctx: RouteContext) {
        const principal = yield* currentUser(ctx).pipe(Effect.orElseSucceed(() => null))
        return htmlResponse(200, page({
          title: principal === null ? "Signed out" : "Sign out",
          principal,
          section: "sign-in",
          main: principal === null
            ? html`<p role="status">You are signed out. <a href="/auth/login">Sign in again</a>.</p>`
            : html`<form method="post" action="/auth/logout"><button type="submit">Sign out of pckgate</button></form>`,
        }))
      }),
    },
    {
      // Ends the session on the server (a copy of the cookie stops working too), then clears the cookie.
      method: "POST",
      path: "/auth/logout",
      handle: Effect.fnUntraced(function*(ctx: RouteContext) {
        if (!fromOwnOrigin(ctx)) return errorPage(403, "Sign-out refused", "Sign out with the button on this site's pages.")
        const ended = yield* endSession(ctx.request, ctx.auth).pipe(Effect.result)
        if (ended._tag === "Failure") {
          return errorPage(503, "Sign-out did not complete", "The service cannot end the session right now; try again in a moment.")
        }
        return redirectWithCookies("/auth/logout", [clearedSessionCookie(isSecure(ctx))])
      }),
    },
  ]
}
