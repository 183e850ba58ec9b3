// Routes that declare their input. A route written with `defineRoute` names Schemas for its path parameters and its
// JSON body; App.ts authenticates, reads and decodes them before the handler runs (decodeRouteInput), so the handler
// receives decoded, branded values and the use cases it calls never see `unknown`. Its error list is a type: the
// handler, its body decoder and its path refusal cannot fail with a tag the OpenAPI document does not list.
import { Effect, Result, Schema } from "effect"
import type { Principal } from "../../domain/auth/Principal.ts"
import { decodeInput, fieldsOf } from "../../domain/decode.ts"
import type { DomainError, Unavailable } from "../../domain/errors.ts"
import { InvalidRequest, NotFound } from "../../domain/errors.ts"
import { authenticate } from "./auth.ts"
import type { Admission } from "./credentialAccess.ts"
import { readJsonBody } from "./body.ts"
import { adminCaller, type AppServices, principalFor, type Route, type RouteContext, type RouteDoc } from "./route.ts"

/** A Schema that decodes an unknown input (a JSON body, the record of path parameters). */
type Decoder = Schema.Decoder<unknown>

/**
 * A body with a rule its Schema cannot answer the way the API does (e.g. a declared size above the limit is 413, not
 * 400): `schema` is the documented request body, `decode` turns the JSON into the value the use case takes.
 */
export interface BodyDecoder<A, E extends DomainError> {
  readonly schema: Schema.Top
  readonly decode: (json: unknown) => Effect.Effect<A, E>
}

type BodySpec = Decoder | BodyDecoder<unknown, DomainError>

/**
 * How path parameters that do not decode are answered. A string: like an unknown record, `NotFound` naming it (the 404
 * rule for ids the service generates). A function: the error it builds from the percent-decoded values ("" for one
 * that cannot be decoded) and the first field that failed, e.g. `game_not_found_or_forbidden` naming the game.
 */
export type PathRefusal<E> = string | ((path: Readonly<Record<string, string>>, field: string) => E)

export interface RouteInputSpec {
  /** Decodes the record of path parameters (percent-decoded first). */
  readonly params?: Decoder
  /** Without it, path parameters that do not decode are 400 invalid_request naming the field. */
  readonly paramsNotFound?: PathRefusal<DomainError>
  /** Decodes the JSON body (read with the body limits and timeouts); documented as the request body. */
  readonly body?: BodySpec
  /** An absent or empty body reads as `{}` (bodies whose every field is optional). */
  readonly optionalBody?: true
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

type Decoded<S> = S extends BodyDecoder<infer A, DomainError> ? A : S extends Schema.Decoder<unknown> ? S["Type"] : undefined

/** The domain errors of these tags. */
export type ErrorOf<Tags extends DomainError["_tag"]> = Extract<DomainError, { readonly _tag: Tags }>

/**
 * A body decoder that fails with an error the route does not list does not compile: the route then lacks this
 * property, whose type names the unlisted tags.
 */
type BodyErrorsListed<B, Tags extends DomainError["_tag"]> = B extends BodyDecoder<unknown, infer E>
  ? [Exclude<E["_tag"], Tags | "InvalidRequest">] extends [never] ? unknown
  : { readonly bodyDecoderFailsWithUnlistedErrors: Exclude<E["_tag"], Tags | "InvalidRequest"> }
  : unknown

export interface DeclaredRoute<
  Access extends RouteDoc["access"],
  Tags extends DomainError["_tag"],
  P extends Decoder | undefined,
  B extends BodySpec | undefined,
> extends Omit<Route, "handle" | "doc" | "input"> {
  /** API routes document themselves; without a doc (browser flows), `access` and `errors` are given beside it. */
  readonly doc?: Omit<RouteDoc, "access" | "errors" | "request" | "requestOptional"> & {
    readonly access: Access
    /** Every domain error the handler may fail with, besides a dependency's `Unavailable` (documented from the route). */
    readonly errors: ReadonlyArray<Tags>
  }
  /** An undocumented route's errors (what `doc.errors` says for documented ones). */
  readonly errors?: ReadonlyArray<Tags>
  readonly params?: P
  readonly paramsNotFound?: PathRefusal<ErrorOf<NoInfer<Tags>>>
  readonly body?: B
  readonly optionalBody?: true
  readonly identify?: true
  readonly handle: (
    ctx: RouteContext,
    input: { readonly principal: PrincipalFor<Access>; readonly params: Decoded<P>; readonly body: Decoded<B> },
  ) => Effect.Effect<Response, ErrorOf<NoInfer<Tags>> | Unavailable | AdmissionFor<Access>, AppServices>
}

/**
 * What an API key or a publishing token meets on a route its scopes or games do not cover (credentialAccess.ts). App.ts
 * admits the caller of signed-in and admin routes before their handler runs; `bearer` routes authenticate in their
 * handler, which may then meet these. The OpenAPI document lists them for every route that authenticates.
 */
type AdmissionFor<Access extends RouteDoc["access"]> = Access extends "bearer" ? Effect.Error<ReturnType<Admission>> : never

const isBodyDecoder = (body: BodySpec): body is BodyDecoder<unknown, DomainError> => !Schema.isSchema(body)

/** A route whose input App.ts decodes; see the file's comment. */
export const defineRoute = <
  const Access extends RouteDoc["access"],
  const Tags extends DomainError["_tag"] = never,
  P extends Decoder | undefined = undefined,
  B extends BodySpec | undefined = undefined,
>(declared: DeclaredRoute<Access, Tags, P, B> & BodyErrorsListed<B, NoInfer<Tags>>): Route => {
  const { doc, errors: _errors, params, paramsNotFound, body, optionalBody, identify, handle, ...rest } = declared as DeclaredRoute<Access, Tags, P, B>
  const input: RouteInputSpec = {
    ...(params !== undefined ? { params } : {}),
    ...(paramsNotFound !== undefined ? { paramsNotFound } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(optionalBody !== undefined ? { optionalBody } : {}),
    ...(identify !== undefined ? { identify } : {}),
  }
  // Answers App.ts gives before the handler runs are documented with the handler's own (a refusal function's errors are
  // among the listed tags; the types see to it).
  const implied: Array<DomainError["_tag"]> = params === undefined
    ? []
    : paramsNotFound === undefined
    ? ["InvalidRequest"]
    : typeof paramsNotFound === "string"
    ? ["NotFound"]
    : []
  const request = body === undefined ? undefined : isBodyDecoder(body) ? body.schema : (body as unknown as Schema.Top)
  return {
    ...rest,
    ...(doc !== undefined
      ? {
        doc: {
          ...doc,
          errors: [...new Set([...doc.errors, ...implied])],
          ...(request !== undefined ? { request } : {}),
          ...(optionalBody !== undefined ? { requestOptional: true } : {}),
        },
      }
      : {}),
    input,
    // App.ts decoded ctx.decoded with exactly these Schemas (decodeRouteInput) before calling this.
    handle: (ctx) => handle(ctx, ctx.decoded as never),
  }
}

/** The path's values percent-decoded; a value that cannot be decoded reads as "" and is listed. */
const percentDecoded = (raw: Readonly<Record<string, string>>) => {
  const values: Record<string, string> = {}
  let malformed = false
  for (const [name, value] of Object.entries(raw)) {
    if (!value.includes("%")) {
      values[name] = value
      continue
    }
    try {
      values[name] = decodeURIComponent(value)
    } catch {
      values[name] = ""
      malformed = true
    }
  }
  return { values, malformed }
}

/**
 * Decodes a path's parameters with `schema` (percent-decoded first); what does not decode is refused as `refusal` says,
 * or 400 naming the field without one. App.ts decodes declared routes' paths with it; pages decode theirs the same way.
 */
export const decodePath = <S extends Decoder, E = never>(
  schema: S,
  refusal: PathRefusal<E> | undefined,
  raw: Readonly<Record<string, string>>,
): Effect.Effect<S["Type"], E | NotFound | InvalidRequest> => {
  const { values, malformed } = percentDecoded(raw)
  if (refusal === undefined) {
    return malformed ? Effect.fail(new InvalidRequest({ problems: ["path: malformed percent-encoding"] })) : decodeInput(schema, values)
  }
  const result = Schema.decodeUnknownResult(schema)(values, { errors: "all", onExcessProperty: "ignore" })
  if (Result.isSuccess(result)) return Effect.succeed(result.success)
  return Effect.fail(typeof refusal === "string" ? new NotFound({ what: refusal }) : refusal(values, fieldsOf(result.failure.issue)[0] ?? ""))
}

const decodeParams = (spec: RouteInputSpec, raw: Readonly<Record<string, string>>): Effect.Effect<unknown, DomainError> =>
  spec.params === undefined ? Effect.succeed(undefined) : decodePath(spec.params, spec.paramsNotFound, raw)

const decodeBody = (body: BodySpec, json: unknown): Effect.Effect<unknown, DomainError> =>
  isBodyDecoder(body) ? body.decode(json) : decodeInput(body, json)

/** Who is calling, as the route's access says: 401 before anything else, then 404 for non-administrators on admin routes. */
const callerOf = (access: RouteDoc["access"] | undefined, spec: RouteInputSpec, ctx: RouteContext) =>
  access === "admin"
    ? adminCaller(ctx)
    : access === "signedIn"
    ? principalFor(ctx)
    : spec.identify === true
    ? Effect.tap(authenticate(ctx.request, ctx.auth), (p) => Effect.sync(() => p !== null && ctx.setUser(p.userId)))
    : Effect.succeed(null)

/**
 * What a declared route's handler receives, in the order the API conventions answer problems: who is calling (401
 * before anything else; 404 for non-administrators on admin routes), then the body (413, 408, 400), then the path (404
 * for ids that cannot exist, like an unknown record; 400 for values that must be valid text).
 */
export const decodeRouteInput = Effect.fnUntraced(function*(route: Route, spec: RouteInputSpec, ctx: RouteContext) {
  const principal = yield* callerOf(route.doc?.access, spec, ctx)
  const body = spec.body === undefined
    ? undefined
    : yield* Effect.flatMap(readJsonBody(ctx.request, ctx.bodyTimeouts, undefined, spec.optionalBody === true), (json) => decodeBody(spec.body!, json))
  const params = yield* decodeParams(spec, ctx.params)
  return { principal, params, body } satisfies DecodedInput
})
