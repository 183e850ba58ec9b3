// The OpenAPI 3.1 document, generated from the routes' own declarations and the Schemas that validate requests.
import { Schema } from "effect"
import type { DomainError } from "../../../domain/errors.ts"
import { ERROR_TABLE, type StatusAndCode } from "../errorTable.ts"
import type { Route, RouteDoc } from "../route.ts"
import { documentedSchema } from "../routeInput.ts"
import { Finding } from "../../../domain/scan/Finding.ts"
import { ErrorBody, Health, RateLimitedBody } from "./schemas.ts"

type Json = Record<string, unknown>

/** Response objects list exactly their fields: a field the document does not know is drift, and the test catches it. */
const closed = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(closed)
  if (node === null || typeof node !== "object") return node
  const out: Json = {}
  for (const [key, value] of Object.entries(node)) out[key] = closed(value)
  if (out["type"] === "object" && out["properties"] !== undefined) out["additionalProperties"] = false
  return out
}

const jsonSchema = (schema: Schema.Top, strict: boolean): unknown => {
  const document = Schema.toJsonSchemaDocument(schema as Schema.Constraint)
  return strict ? closed(document.schema) : document.schema
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, "{$1}")

/** Each path parameter's JSON Schema, from the Schema App.ts decodes the path with (routes declared with defineRoute). */
const pathSchemas = (route: Route): Readonly<Record<string, unknown>> => {
  const params = route.input?.params
  if (params === undefined) return {}
  const schema = jsonSchema(params as unknown as Schema.Top, false) as Json
  return (schema["properties"] ?? {}) as Record<string, unknown>
}

/** The query parameters of a route that declares its query, from the Schema App.ts decodes it with. */
const queryParameters = (route: Route): ReadonlyArray<Json> => {
  const query = route.input?.query
  if (query === undefined) return []
  const schema = jsonSchema(documentedSchema(query), false) as Json
  const required = new Set((schema["required"] ?? []) as ReadonlyArray<string>)
  return Object.entries((schema["properties"] ?? {}) as Record<string, unknown>).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: property,
  }))
}

const SECURITY = {
  public: [{}, { bearerAuth: [] }, { sessionCookie: [] }],
  signedIn: [{ bearerAuth: [] }, { sessionCookie: [] }],
  admin: [{ bearerAuth: [] }, { sessionCookie: [] }],
  bearer: [{ bearerAuth: [] }],
  session: [{ sessionCookie: [] }],
} as const

const errorsOf = (route: Route, doc: RouteDoc): ReadonlyArray<StatusAndCode> => {
  const tags = new Set<DomainError["_tag"]>(doc.errors)
  // What an API key or publisher token outside its scopes or games is answered (adapters/http/credentialAccess.ts), on
  // every route that authenticates its caller: 404 like an unknown route, or like an unknown game for a scoped route
  // about a game the credential does not cover. A session-only route refuses every Bearer credential with 401.
  if (doc.access !== "public" || doc.credentialScopes !== undefined || route.input?.identify === true) {
    tags.add("SignInRequired")
    if (doc.access !== "session") tags.add("NotFound")
    if (doc.credentialScopes !== undefined && route.path.includes(":gameId")) tags.add("GameNotFoundOrForbidden")
  }
  // A JSON body can be malformed, too large or too slow to arrive (adapters/http/body.ts).
  if (doc.request !== undefined) {
    tags.add("InvalidRequest")
    tags.add("RequestTooLarge")
    tags.add("RequestTimedOut")
  }
  const codes: Array<StatusAndCode> = [...tags].map((tag) => ERROR_TABLE[tag])
  codes.push(route.dependencyFailure ?? ERROR_TABLE.Unavailable, [500, "internal"])
  return codes
}

const errorResponses = (codes: ReadonlyArray<StatusAndCode>, okEnvelope: boolean): Json => {
  const byStatus = new Map<number, Set<string>>()
  for (const [status, code] of codes) byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code))
  const responses: Json = {}
  for (const [status, set] of [...byStatus].sort(([a], [b]) => a - b)) {
    const list = [...set].sort()
    const base = (status === 429 ? jsonSchema(RateLimitedBody, true) : jsonSchema(ErrorBody, true)) as Json
    const properties: Json = { ...(base["properties"] as Json), error: { type: "string", enum: list } }
    const required = [...(base["required"] as ReadonlyArray<string>)]
    if (okEnvelope) {
      properties["ok"] = { const: false }
      required.push("ok")
    }
    // The scanner's blocking findings, each with file, line and the blocked pattern (spec §4.6).
    if (list.includes(ERROR_TABLE.StaticAnalysisFailed[1])) {
      properties["violations"] = { type: "array", items: jsonSchema(Finding, true) }
      required.push("violations")
    }
    // The review gate's conflicts carry their data (optional: a 409 may be another conflict of the same endpoint).
    if (list.includes(ERROR_TABLE.FindingsUnresolved[1])) properties["unresolvedErrors"] = { type: "integer", minimum: 1 }
    if (list.includes(ERROR_TABLE.Claimed[1])) {
      properties["claimedBy"] = { type: "string" }
      properties["claimedUntil"] = { type: "string", format: "date-time" }
    }
    const schema = { ...base, properties, required }
    responses[String(status)] = {
      description: list.map((c) => `\`${c}\``).join(", "),
      ...(status === 429 ? { headers: { "Retry-After": { schema: { type: "integer" }, description: "seconds until the budget allows another call" } } } : {}),
      content: { "application/json": { schema } },
    }
  }
  return responses
}

export const openApiDocument = (routes: ReadonlyArray<Route>, baseUrl: string): Json => {
  const paths: Record<string, Json> = {}
  for (const route of routes) {
    // Every JSON route documents itself, wherever it is defined (the API, the multipart endpoint, the pages' upload
    // token; test/e2e/openapi.test.ts checks it). The routes without a doc are the browser's: HTML pages, sign-in
    // redirects and static files, which answer HTML, not the JSON this document describes.
    if (route.doc === undefined) continue
    const doc = route.doc
    const path = openApiPath(route.path)
    const declared = pathSchemas(route)
    const parameters = [
      ...[...route.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => ({
        name: name!,
        in: "path",
        required: true,
        schema: declared[name!] ?? { type: "string" },
      })),
      ...queryParameters(route),
    ]
    const [status, schema] = doc.success
    paths[path] = {
      ...paths[path],
      [route.method.toLowerCase()]: {
        operationId: `${route.method.toLowerCase()} ${route.path}`,
        summary: doc.summary,
        security: SECURITY[doc.access],
        ...(parameters.length > 0 ? { parameters } : {}),
        ...(doc.requestBody !== undefined
          ? { requestBody: doc.requestBody }
          : doc.request !== undefined
          ? { requestBody: { required: doc.requestOptional !== true, content: { "application/json": { schema: jsonSchema(doc.request, false) } } } }
          : {}),
        responses: {
          [String(status)]: schema === null
            ? { description: "done, no body" }
            : { description: "success", content: { "application/json": { schema: jsonSchema(schema, true) } } },
          ...errorResponses(errorsOf(route, doc), route.okEnvelope === true),
        },
      },
    }
  }
  paths["/healthz"] = { get: { operationId: "get /healthz", summary: "Liveness", security: [{}], responses: { "200": { description: "alive", content: { "application/json": { schema: jsonSchema(Health, true) } } } } } }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "pckgate",
      version: "1",
      description: "Review and distribution of Godot game packages. Every error body is {error, detail}; detail names the next action. " +
        "Presigned upload URLs are PUT with the raw bytes and exactly the returned headers, without Authorization; they answer " +
        "200, 403 SignatureDoesNotMatch or 412 when the key already holds an object.",
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        sessionCookie: { type: "apiKey", in: "cookie", name: "pckgate_session" },
      },
    },
    paths,
  }
}
