// Routes that declare their input. A route written with `defineRoute` names Schemas for its path parameters, its JSON
// body and its query string; App.ts authenticates, reads and decodes them before the handler runs (decodeRouteInput),
// so the handler receives decoded, branded values and the use cases it calls never see `unknown`. Its error list is a
// type: the handler, its body and query decoders and its path refusal cannot fail with a tag the OpenAPI document does
// not list.
import { Effect, Result, Schema } from "effect"
import type { Principal } from "../../domain/auth/Principal.ts"
import { decodeInput, fieldsOf } from "../../domain/decode.ts"
import type { DomainError, Unavailable } from "../../domain/errors.ts"
import { InvalidRequest, NotFound } from "../../domain/errors.ts"
import { authenticate } from "./auth.ts"
import type { Admission } from "./credentialAccess.ts"
import { readJsonBody } from "./body.ts"
import { adminCaller, type AppServices, principalFor, type Route, type RouteContext, type RouteDoc } from "./route.ts"

/** A Schema that decodes an unknown input (a JSON body, the record of path or query parameters). */
type Decoder = Schema.Decoder<unknown>

/**
 * An input with a rule its Schema cannot answer the way the API does (e.g. a declared size above the limit is 413, not
 * 400): `schema` is what the document shows, `decode` turns the input into the value the use case takes.
 */
export interface InputDecoder<A, E extends DomainError> {
  readonly schema: Schema.Top
  readonly decode: (input: unknown) => Effect.Effect<A, E>
}

/** How a body or a query string is decoded: a Schema, or a decoder. */
type InputSpec = Decoder | InputDecoder<unknown, DomainError>

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
  readonly body?: InputSpec
  /**
   * Decodes the query string, as a record of each parameter's first value (absent parameters are absent keys);
   * documented as query parameters. Without a decoder of its own, a query that does not decode is 400 naming each field.
   */
  readonly query?: InputSpec
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
  readonly query: unknown
}

/** Who a route's handler sees: always someone on signed-in and admin routes. */
type PrincipalFor<Access extends RouteDoc["access"]> = Access extends "signedIn" | "admin" ? Principal : Principal | null

type Decoded<S> = S extends InputDecoder<infer A, DomainError> ? A : S extends Schema.Decoder<unknown> ? S["Type"] : undefined

/** The domain errors of these tags. */
export type ErrorOf<Tags extends DomainError["_tag"]> = Extract<DomainError, { readonly _tag: Tags }>

/**
 * A body or query decoder that fails with an error the route does not list does not compile: the route then lacks
 * this property, whose type names the unlisted tags.
 */
type DecoderErrorsListed<Input, Tags extends DomainError["_tag"], Property extends string> = Input extends InputDecoder<unknown, infer E>
  ? [Exclude<E["_tag"], Tags | "InvalidRequest">] extends [never] ? unknown
  : { readonly [K in Property]: Exclude<E["_tag"], Tags | "InvalidRequest"> }
  : unknown

export interface DeclaredRoute<
  Access extends RouteDoc["access"],
  Tags extends DomainError["_tag"],
  P extends Decoder | undefined,
  B extends InputSpec | undefined,
  Q extends InputSpec | undefined,
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
  readonly query?: Q
  readonly identify?: true
  readonly handle: (
    ctx: RouteContext,
    input: {
      readonly principal: PrincipalFor<Access>
      readonly params: Decoded<P>
      readonly body: Decoded<B>
      readonly query: Decoded<Q>
    },
  ) => Effect.Effect<Response, ErrorOf<NoInfer<Tags>> | Unavailable | AdmissionFor<Access>, AppServices>
}

/**
 * What an API key or a publishing token meets on a route its scopes or games do not cover (credentialAccess.ts). App.ts
 * admits the caller of signed-in and admin routes before their handler runs; `bearer` routes authenticate in their
 * handler, which may then meet these. The OpenAPI document lists them for every route that authenticates.
 */
type AdmissionFor<Access extends RouteDoc["access"]> = Access extends "bearer" ? Effect.Error<ReturnType<Admission>> : never

const isInputDecoder = (input: InputSpec): input is InputDecoder<unknown, DomainError> => !Schema.isSchema(input)

/** The Schema an input is documented with. */
export const documentedSchema = (input: InputSpec): Schema.Top => isInputDecoder(input) ? input.schema : (input as unknown as Schema.Top)

/** A route whose input App.ts decodes; see the file's comment. */
export const defineRoute = <
  const Access extends RouteDoc["access"],
  const Tags extends DomainError["_tag"] = never,
  P extends Decoder | undefined = undefined,
  B extends InputSpec | undefined = undefined,
  Q extends InputSpec | undefined = undefined,
>(
  declared:
    & DeclaredRoute<Access, Tags, P, B, Q>
    & DecoderErrorsListed<B, NoInfer<Tags>, "bodyDecoderFailsWithUnlistedErrors">
    & DecoderErrorsListed<Q, NoInfer<Tags>, "queryDecoderFailsWithUnlistedErrors">,
): Route => {
  const { doc, errors: _errors, params, paramsNotFound, body, optionalBody, query, identify, handle, ...rest } = declared as DeclaredRoute<
    Access,
    Tags,
    P,
    B,
    Q
  >
  const input: RouteInputSpec = {
    ...(params !== undefined ? { params } : {}),
    ...(paramsNotFound !== undefined ? { paramsNotFound } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(optionalBody !== undefined ? { optionalBody } : {}),
    ...(query !== undefined ? { query } : {}),
    ...(identify !== undefined ? { identify } : {}),
  }
  // Answers App.ts gives before the handler runs are documented with the handler's own (a refusal function's errors are
  // among the listed tags; the types see to it).
  const implied: Array<DomainError["_tag"]> = [
    ...(params === undefined ? [] : paramsNotFound === undefined ? ["InvalidRequest" as const] : typeof paramsNotFound === "string" ? ["NotFound" as const] : []),
    ...(query === undefined ? [] : ["InvalidRequest" as const]),
  ]
  const request = body === undefined ? undefined : documentedSchema(body)
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

const decodeWith = (spec: InputSpec, input: unknown): Effect.Effect<unknown, DomainError> =>
  isInputDecoder(spec) ? spec.decode(input) : decodeInput(spec, input)

/** The query string as a record of each parameter's first value. */
const queryRecord = (url: string): Record<string, string> => {
  const first = new Map<string, string>()
  for (const [name, value] of new URL(url).searchParams) if (!first.has(name)) first.set(name, value)
  return Object.fromEntries(first)
}

/** Decodes a request's query string as `spec` says (400 naming each field); pages decode theirs with it too. */
export const decodeQuery = <S extends InputSpec>(
  spec: S,
  request: Request,
): Effect.Effect<Decoded<S>, S extends InputDecoder<unknown, infer E> ? E : InvalidRequest> =>
  decodeWith(spec, queryRecord(request.url)) as never

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
 * for ids that cannot exist, like an unknown record; 400 for values that must be valid text), then the query (400).
 */
export const decodeRouteInput = Effect.fnUntraced(function*(route: Route, spec: RouteInputSpec, ctx: RouteContext) {
  const principal = yield* callerOf(route.doc?.access, spec, ctx)
  const body = spec.body === undefined
    ? undefined
    : yield* Effect.flatMap(readJsonBody(ctx.request, ctx.bodyTimeouts, undefined, spec.optionalBody === true), (json) => decodeWith(spec.body!, json))
  const params = yield* decodeParams(spec, ctx.params)
  const query = spec.query === undefined ? undefined : yield* decodeWith(spec.query, queryRecord(ctx.request.url))
  return { principal, params, body, query } satisfies DecodedInput
})
