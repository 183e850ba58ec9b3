import { Effect, Schema } from "effect"
import { describe, expect, test } from "vitest"
import { ArtifactTooLarge, type DomainError, GameNotFoundOrForbidden, InvalidRequest, NotFound, SlugTaken } from "../../domain/errors.ts"
import { GamePath } from "../../domain/game/GamePath.ts"
import { json } from "../../adapters/http/respond.ts"
import { defineRoute } from "../../adapters/http/routeInput.ts"

// A declared route's error list is a type (adapters/http/routeInput.ts): its handler, its body decoder and its path
// refusal may fail only with the tags it lists, so the OpenAPI document, generated from the list, and the handler
// cannot drift. `npm run typecheck` checks this file: each `@ts-expect-error` below must meet a type error, so a
// relaxed constraint fails the typecheck (an unused directive is an error). The tests check what the list documents.

const doc = <const Tag extends DomainError["_tag"]>(errors: ReadonlyArray<Tag>) =>
  ({ summary: "a test route", access: "signedIn", success: [200, null], errors }) as const

const Body = Schema.Struct({ size: Schema.Number })
const sizeChecked = {
  schema: Body,
  decode: (json: unknown) =>
    Effect.flatMap(Effect.mapError(Schema.decodeUnknownEffect(Body)(json), () => new InvalidRequest({ problems: ["size: a number"] })), (body) =>
      body.size > 10 ? Effect.fail(new ArtifactTooLarge({ sizeBytes: body.size, limitBytes: 10 })) : Effect.succeed(body)),
}

describe("a declared route's error list", () => {
  test("a handler may fail with the listed errors; an unlisted one does not compile", () => {
    const listed = defineRoute({
      method: "GET",
      path: "/t/listed",
      doc: doc(["NotFound"]),
      handle: () => Effect.fail(new NotFound({ what: "thing" })),
    })
    const unlisted = defineRoute({
      method: "GET",
      path: "/t/unlisted",
      doc: doc(["NotFound"]),
      // @ts-expect-error SlugTaken is not in the route's list
      handle: () => Effect.fail(new SlugTaken({ slug: "x" })),
    })
    const notAdmission = defineRoute({
      method: "GET",
      path: "/t/admitted",
      doc: doc(["NotFound"]),
      // @ts-expect-error App.ts admitted the caller of a signed-in route before its handler: a 404 it answers itself is listed
      handle: () => Effect.fail(new GameNotFoundOrForbidden({ gameId: "x" })),
    })
    expect(listed.doc?.errors).toEqual(["NotFound"])
    expect(unlisted.doc?.errors).toEqual(["NotFound"])
    expect(notAdmission.doc?.errors).toEqual(["NotFound"])
  })

  test("a body decoder's errors must be listed too (InvalidRequest is every body's); the body is documented", () => {
    const listed = defineRoute({
      method: "POST",
      path: "/t/body",
      doc: doc(["ArtifactTooLarge"]),
      body: sizeChecked,
      handle: (_ctx, { body }) => Effect.succeed(json(200, body)),
    })
    // @ts-expect-error the decoder fails with ArtifactTooLarge, which this route does not list
    const unlisted = defineRoute({
      method: "POST",
      path: "/t/body-unlisted",
      doc: doc(["NotFound"]),
      body: sizeChecked,
      handle: (_ctx, { body }) => Effect.succeed(json(200, body)),
    })
    expect(listed.doc?.request).toBe(Body)
    expect(unlisted.doc?.request).toBe(Body)
  })

  test("a path refusal builds a listed error; a string refusal is documented as not_found", () => {
    const named = defineRoute({
      method: "GET",
      path: "/t/:gameId",
      doc: doc(["GameNotFoundOrForbidden"]),
      params: GamePath,
      paramsNotFound: (path) => new GameNotFoundOrForbidden({ gameId: path["gameId"] ?? "" }),
      handle: (_ctx, { params }) => Effect.succeed(json(200, { gameId: params.gameId })),
    })
    const unlisted = defineRoute({
      method: "GET",
      path: "/t/:gameId/unlisted",
      doc: doc(["NotFound"]),
      params: GamePath,
      // @ts-expect-error GameNotFoundOrForbidden is not in the route's list
      paramsNotFound: (path) => new GameNotFoundOrForbidden({ gameId: path["gameId"] ?? "" }),
      handle: () => Effect.succeed(json(200, {})),
    })
    const implied = defineRoute({
      method: "GET",
      path: "/t/:gameId/implied",
      doc: doc([]),
      params: GamePath,
      paramsNotFound: "game",
      handle: () => Effect.succeed(json(200, {})),
    })
    expect(named.doc?.errors).toEqual(["GameNotFoundOrForbidden"])
    expect(unlisted.doc?.errors).toEqual(["NotFound"])
    expect(implied.doc?.errors).toEqual(["NotFound"])
  })

  test("a query decoder's errors must be listed too; a declared query implies invalid_request", () => {
    const Query = Schema.Struct({ limit: Schema.optionalKey(Schema.String) })
    const tooLarge = { schema: Query, decode: () => Effect.fail(new ArtifactTooLarge({ sizeBytes: 11, limitBytes: 10 })) }
    const schema = defineRoute({
      method: "GET",
      path: "/t/query",
      doc: doc([]),
      query: Query,
      handle: (_ctx, { query }) => Effect.succeed(json(200, { limit: query.limit ?? null })),
    })
    // @ts-expect-error the query decoder fails with ArtifactTooLarge, which this route does not list
    const unlisted = defineRoute({
      method: "GET",
      path: "/t/query-unlisted",
      doc: doc(["NotFound"]),
      query: tooLarge,
      handle: () => Effect.succeed(json(200, {})),
    })
    expect(schema.doc?.errors).toEqual(["InvalidRequest"])
    expect(schema.input?.query).toBe(Query)
    expect(unlisted.doc?.errors).toEqual(["NotFound", "InvalidRequest"])
  })
})
