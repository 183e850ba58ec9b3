// Routes that declare their input. A route written with `defineRoute` names Schemas for its path parameters and its
// JSON body; App.ts authenticates, reads and decodes them before the handler runs (decodeRouteInput), so the handler
// receives decoded, branded values and the use cases it calls never see `unknown`. Its error list is a type: the
// handler cannot fail with a tag the OpenAPI document does not list. Routes written the older way (a bare `handle`)
// keep working beside these.
import { Effect, type Schema } from "effect"
import type { Principal } from "../../domain/auth/Principal.ts"
import { decodeInput } from "../../domain/decode.ts"
import type { DomainError, Unavailable } from "../../domain/errors.ts"
import { InvalidRequest, NotFound } from "../../domain/errors.ts"
import { authenticate } from "./auth.ts"
import { readJsonBody } from "./body.ts"
import { type AppServices, principalFor, type Route, type RouteContext, type RouteDoc } from "./route.ts"

/** A Schema that decodes an unknown input (a JSON body, the record of path parameters). */
type Decoder = Schema.Decoder<unknown>

export interface RouteInputSpec {
  /** Decodes the record of path parameters (percent-decoded first). */
  readonly params?: Decoder
  /**
   * How path parameters that do not decode are answered. Ids the service generates are answered like an unknown
   * record (the 404 rule: `NotFound` naming `what`); without it, 400 invalid_request naming the field.
   */
  readonly paramsNotFound?: string
  /** Decodes the JSON body (read with the body limits and timeouts); documented as the request body. */
  readonly body?: Decoder
  /** Public routes that answer more to a signed-in caller: identify the caller when credentials are sent. */
  readonly identify?: true
}

/** What App.ts hands a declared route's handler. */
export interface DecodedInput {
  readonly principal: Principal | null
  readonly params: unknown
  readonly body: unknown
}

/** Who a route's handler sees: always someone on signed-in and admin routes. */
type PrincipalFor<Access extends RouteDoc["access"]> = Access extends "signedIn" | "admin" ? Principal : Principal | null

type Decoded<S> = S extends Schema.Decoder<unknown> ? S["Type"] : undefined

/** The domain errors of these tags. */
export type ErrorOf<Tags extends DomainError["_tag"]> = Extract<DomainError, { readonly _tag: Tags }>

export interface DeclaredRoute<
  Access extends RouteDoc["access"],
  Tags extends DomainError["_tag"],
  P extends Decoder | undefined,
  B extends Decoder | undefined,
> extends Omit<Route, "handle" | "doc" | "input"> {
  /** API routes document themselves; without a doc (browser flows), `access` and `errors` are given beside it. */
  readonly doc?: Omit<RouteDoc, "access" | "errors" | "request"> & {
    readonly access: Access
    /** Every domain error the handler may fail with, besides a dependency's `Unavailable` (documented from the route). */
    readonly errors: ReadonlyArray<Tags>
  }
  /** An undocumented route's errors (what `doc.errors` says for documented ones). */
  readonly errors?: ReadonlyArray<Tags>
  readonly params?: P
  readonly paramsNotFound?: string
  readonly body?: B
  readonly identify?: true
  readonly handle: (
    ctx: RouteContext,
    input: { readonly principal: PrincipalFor<Access>; readonly params: Decoded<P>; readonly body: Decoded<B> },
  ) => Effect.Effect<Response, ErrorOf<NoInfer<Tags>> | Unavailable, AppServices>
}

/** A route whose input App.ts decodes; see the file's comment. */
export const defineRoute = <
  const Access extends RouteDoc["access"],
  const Tags extends DomainError["_tag"] = never,
  P extends Decoder | undefined = undefined,
  B extends Decoder | undefined = undefined,
>(declared: DeclaredRoute<Access, Tags, P, B>): Route => {
  const { doc, errors: _errors, params, paramsNotFound, body, identify, handle, ...rest } = declared
  const input: RouteInputSpec = {
    ...(params !== undefined ? { params } : {}),
    ...(paramsNotFound !== undefined ? { paramsNotFound } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(identify !== undefined ? { identify } : {}),
  }
  // Answers App.ts gives before the handler runs are documented with the handler's own.
  const implied: Array<DomainError["_tag"]> = params === undefined ? [] : paramsNotFound !== undefined ? ["NotFound"] : ["InvalidRequest"]
  return {
    ...rest,
    ...(doc !== undefined
      ? { doc: { ...doc, errors: [...new Set([...doc.errors, ...implied])], ...(body !== undefined ? { request: body as unknown as Schema.Top } : {}) } }
      : {}),
    input,
    // App.ts decoded ctx.decoded with exactly these Schemas (decodeRouteInput) before calling this.
    handle: (ctx) => handle(ctx, ctx.decoded as never),
  }
}

const percentDecoded = (raw: Readonly<Record<string, string>>): Record<string, string> | null => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) {
    if (!value.includes("%")) {
      out[name] = value
      continue
    }
    try {
      out[name] = decodeURIComponent(value)
    } catch {
      return null
    }
  }
  return out
}

const decodeParams = (spec: RouteInputSpec, raw: Readonly<Record<string, string>>) => {
  if (spec.params === undefined) return Effect.succeed(undefined)
  const schema = spec.params
  const notFound = spec.paramsNotFound
  const decoded = percentDecoded(raw)
  if (decoded === null) {
    return notFound !== undefined
      ? Effect.fail(new NotFound({ what: notFound }))
      : Effect.fail(new InvalidRequest({ problems: ["path: malformed percent-encoding"] }))
  }
  const result = decodeInput(schema, decoded)
  return notFound === undefined ? result : Effect.catchTag(result, "InvalidRequest", () => Effect.fail(new NotFound({ what: notFound })))
}

/**
 * What a declared route's handler receives, in the order the API conventions answer problems: who is calling (401
 * before anything else), then the path (404 for ids that cannot exist), then the body (413, 408, 400).
 */
export const decodeRouteInput = Effect.fnUntraced(function*(route: Route, spec: RouteInputSpec, ctx: RouteContext) {
  const access = route.doc?.access
  const principal = access === "signedIn" || access === "admin"
    ? yield* principalFor(ctx)
    : spec.identify === true
    ? yield* Effect.tap(authenticate(ctx.request, ctx.auth), (p) => Effect.sync(() => p !== null && ctx.setUser(p.userId)))
    : null
  const params = yield* decodeParams(spec, ctx.params)
  const body = spec.body === undefined ? undefined : yield* Effect.flatMap(readJsonBody(ctx.request, ctx.bodyTimeouts), (json) => decodeInput(spec.body!, json))
  return { principal, params, body } satisfies DecodedInput
})
