import { Ajv2020 } from "ajv/dist/2020.js"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { API_ROUTES } from "../../adapters/http/App.ts"
import { ERROR_TABLE } from "../../adapters/http/errorTable.ts"
import type { Route } from "../../adapters/http/route.ts"
import { browserRoutes } from "../../adapters/http/pages/index.ts"
import { DEFAULT_SUBMISSION_LIMITS, submitRoutes } from "../../adapters/http/routes/submit.ts"
import type { DomainError } from "../../domain/errors.ts"
import { apiClient, artifact, type Reply } from "../support/api.ts"
import { type RunningServer, startServer } from "../support/server.ts"

// Real responses from the running server must match GET /openapi.json, so the document cannot drift.

describe("GET /openapi.json describes what the server really answers", () => {
  let server: RunningServer
  let doc: any
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  const seen = new Set<string>()

  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_COUNT: "1" } })
    const response = await fetch(`${server.baseUrl}/openapi.json`)
    expect(response.status).toBe(200)
    doc = await response.json()
  })
  afterAll(() => server.stop())

  /** Asserts the reply is documented for this operation and status, and its body matches the schema. */
  const conforms = (method: string, template: string, reply: Reply) => {
    const operation = doc.paths[template]?.[method.toLowerCase()]
    expect(operation, `${method} ${template} is documented`).toBeDefined()
    const documented = operation.responses[String(reply.status)]
    expect(documented, `${method} ${template} documents status ${reply.status} (${JSON.stringify(reply.body)})`).toBeDefined()
    const schema = documented.content?.["application/json"]?.schema
    if (schema === undefined) return expect(reply.body).toBeNull()
    const validate = ajv.compile(schema)
    expect(validate(reply.body), `${method} ${template} ${reply.status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(reply.body)}`).toBe(true)
    seen.add(`${method} ${template} ${reply.status}`)
  }

  test("is an OpenAPI 3.1 document listing every endpoint with its request schema and error codes", () => {
    expect(doc.openapi).toBe("3.1.0")
    expect(doc.servers[0].url).toBe(server.baseUrl)
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      "/api/games/engine", "/api/games/{gameId}/releases/upload-url", "/api/games/{gameId}/releases/finalize",
      "/api/games/{gameId}/releases/{version}/download-url", "/api/admin/review-queue", "/api/catalog",
    ]))
    const finalize = doc.paths["/api/games/{gameId}/releases/finalize"].post
    expect(finalize.requestBody.content["application/json"].schema.properties.sha256.pattern).toBe("^[0-9a-f]{64}$")
    expect(finalize.responses["409"].content["application/json"].schema.properties.error.enum).toEqual(
      ["artifact_missing", "no_upload_intent", "not_an_engine_game", "version_exists"],
    )
    expect(finalize.responses["502"].content["application/json"].schema.properties.error.enum).toEqual(["finalize_failed"])
    expect(doc.paths["/api/games/engine"].post.responses["429"].headers["Retry-After"]).toBeDefined()
  })

  test("every JSON route the server serves is in the document, wherever it is defined; only the browser's HTML routes are not", () => {
    const served: ReadonlyArray<Route> = [
      ...API_ROUTES,
      ...submitRoutes({ basePath: "/submit-api", corsOrigin: null, limits: DEFAULT_SUBMISSION_LIMITS }),
      ...browserRoutes({ signIn: { kind: "dev" }, secret: new Uint8Array(32), submitApiUrl: () => `${server.baseUrl}/submit-api` }),
    ]
    const undocumented = served.filter((route) => route.doc === undefined).map((route) => `${route.method} ${route.path}`)
    // Pages, sign-in redirects and static files answer HTML (or files), not JSON.
    expect(undocumented.filter((route) => /^\w+ \/(api|submit-api)\//.test(route))).toEqual([])
    for (const route of served.filter((r) => r.doc !== undefined)) {
      expect(doc.paths[route.path.replace(/:([A-Za-z]+)/g, "{$1}")]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined()
    }
    expect(doc.paths["/api/session/upload-token"].post.security).toEqual([{ sessionCookie: [] }])
  })

  test("every error a route declares has a row in the error table and is documented for that route with its status and code", () => {
    // The routes the server serves: the API, and the multipart endpoint at its default {submit_api_url}.
    const routes: ReadonlyArray<Route> = [...API_ROUTES, ...submitRoutes({ basePath: "/submit-api", corsOrigin: null, limits: DEFAULT_SUBMISSION_LIMITS })]
    const documented = (route: Route, tag: DomainError["_tag"]) => {
      const row = ERROR_TABLE[tag]
      expect(row, `${tag} has a row in the error table`).toBeDefined()
      const [status, code] = row
      const operation = doc.paths[route.path.replace(/:([A-Za-z]+)/g, "{$1}")]?.[route.method.toLowerCase()]
      const codes = operation?.responses[String(status)]?.content?.["application/json"]?.schema?.properties?.error?.enum
      expect(codes ?? [], `${route.method} ${route.path} documents ${status} ${code} (${tag})`).toContain(code)
    }
    let checked = 0
    for (const route of routes) {
      if (route.doc === undefined) continue
      for (const tag of route.doc.errors) {
        documented(route, tag)
        checked++
      }
      // What App.ts answers before a declared route's handler: a body's problems, a path and a query that do not decode.
      if (route.input?.body !== undefined) for (const tag of ["InvalidRequest", "RequestTooLarge", "RequestTimedOut"] as const) documented(route, tag)
      if (route.input?.params !== undefined && route.input.paramsNotFound === undefined) documented(route, "InvalidRequest")
      if (typeof route.input?.paramsNotFound === "string") documented(route, "NotFound")
      if (route.input?.query !== undefined) documented(route, "InvalidRequest")
    }
    expect(checked).toBeGreaterThan(60)
  })

  test("a declared route's path parameters are documented with the Schema App.ts decodes them with", () => {
    const download = doc.paths["/api/games/{gameId}/releases/{version}/download-url"].get
    const byName = Object.fromEntries(download.parameters.map((p: any) => [p.name, p.schema]))
    expect(byName.gameId.pattern).toBe("^[A-Za-z0-9_-]{1,64}$")
    expect(byName.version.pattern).toMatch(/A-Za-z0-9/)
    // approve's body is optional: an empty one approves without an override.
    expect(doc.paths["/api/admin/games/{gameId}/releases/{version}/approve"].post.requestBody.required).toBe(false)
    expect(doc.paths["/api/admin/games/{gameId}/releases/{version}/reject"].post.requestBody.required).toBe(true)
    // A declared query: each parameter with the Schema it is decoded with, required or not.
    const files = Object.fromEntries(doc.paths["/api/admin/games/{gameId}/releases/{version}/files"].get.parameters.map((p: any) => [p.name, p]))
    expect([files.limit.in, files.limit.required, files.limit.schema.pattern]).toEqual(["query", false, "^[0-9]{1,5}$"])
    expect([files.cursor.in, files.cursor.required]).toEqual(["query", false])
    const file = Object.fromEntries(doc.paths["/api/admin/games/{gameId}/releases/{version}/file"].get.parameters.map((p: any) => [p.name, p]))
    expect([file.path.in, file.path.required]).toEqual(["query", true])
  })

  test("the game-wide takedown and reinstate say what they do: the reinstate reverses only what the takedown took", () => {
    const summaryOf = (path: string) => doc.paths[path].post.summary as string
    expect(summaryOf("/api/admin/games/{gameId}/takedown")).toContain("every approved release")
    const reinstate = summaryOf("/api/admin/games/{gameId}/reinstate")
    expect(reinstate).toContain("only the releases the game-wide takedown took")
    expect(reinstate).toContain("taken down on its own stays down")
    expect(reinstate).toContain("if no release is active now")
    expect(reinstate).not.toMatch(/every taken-down release|the newest active/)
  })

  test("a whole release flow, its errors included, conforms", async () => {
    const api = apiClient(server.baseUrl)
    const creator = server.token("openapi-creator")
    const admin = server.token("openapi-admin", { admin: true })
    const created = await api.createGame(creator, { name: "Documented" })
    conforms("POST", "/api/games/engine", created)
    conforms("POST", "/api/games/engine", await api.createGame(creator, { name: "Second" })) // 429
    conforms("POST", "/api/games/engine", await api.createGame(server.token("other"), { name: "" })) // 400
    conforms("POST", "/api/games/engine", await api.call("POST", "/api/games/engine", { body: { name: "x" } })) // 401
    const gameId = created.body.gameId
    const pck = artifact(4096)
    conforms("POST", "/api/games/{gameId}/releases/finalize", await api.finalize(creator, gameId, pck.declaration)) // 409 no intent
    const presigned = await api.uploadUrl(creator, gameId, pck.declaration)
    conforms("POST", "/api/games/{gameId}/releases/upload-url", presigned)
    conforms("POST", "/api/games/{gameId}/releases/upload-url", await api.uploadUrl(creator, gameId, { ...pck.declaration, sizeBytes: 2 ** 30 })) // 413
    conforms("POST", "/api/games/{gameId}/releases/upload-url", await api.uploadUrl(creator, "gm_nope", pck.declaration)) // 404
    await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)
    conforms("POST", "/api/games/{gameId}/releases/finalize", await api.finalize(creator, gameId, pck.declaration))
    conforms("GET", "/api/games/{gameId}/releases/{version}/download-url", await api.downloadUrl(server.token("stranger"), gameId, "1.0.0")) // 404
    conforms("GET", "/api/admin/review-queue", await api.call("GET", "/api/admin/review-queue", { token: admin }))
    conforms("GET", "/api/games/{gameId}", await api.call("GET", `/api/games/${gameId}`, { token: creator }))
    conforms("GET", "/api/games/{gameId}", await api.call("GET", `/api/games/${gameId}`)) // 404 while unpublished
    // The review gate: a claim, another admin's refused claim, the scan, an unresolved finding, accepting it, approval.
    const claimPath = "/api/admin/games/{gameId}/releases/{version}/claim"
    conforms("POST", claimPath, await api.call("POST", `/api/admin/games/${gameId}/releases/1.0.0/claim`, { token: admin }))
    conforms("POST", claimPath, await api.call("POST", `/api/admin/games/${gameId}/releases/1.0.0/claim`, { token: server.token("openapi-admin-2", { admin: true }) })) // 409
    conforms("DELETE", claimPath, await api.call("DELETE", `/api/admin/games/${gameId}/releases/1.0.0/claim`, { token: admin })) // 204
    const scan = await api.scanned(admin, gameId, "1.0.0")
    conforms("GET", "/api/games/{gameId}/releases/{version}/scan", { status: 200, body: scan, headers: new Headers() })
    const unresolved = await api.approve(admin, gameId, "1.0.0")
    expect(unresolved.body.error).toBe("findings_unresolved")
    conforms("POST", "/api/admin/games/{gameId}/releases/{version}/approve", unresolved) // 409
    const acceptPath = "/api/admin/games/{gameId}/findings/{fingerprint}/accept"
    const fingerprint = scan.report.findings[0].fingerprint
    conforms("POST", acceptPath, await api.call("POST", `/api/admin/games/${gameId}/findings/${fingerprint}/accept`, { token: admin, body: { reason: "random bytes" } }))
    conforms("POST", acceptPath, await api.call("POST", `/api/admin/games/${gameId}/findings/fp_none/accept`, { token: admin, body: { reason: "x" } })) // 404
    conforms("DELETE", acceptPath, await api.call("DELETE", `/api/admin/games/${gameId}/findings/${fingerprint}/accept`, { token: admin })) // 204
    conforms("POST", "/api/admin/games/{gameId}/releases/{version}/approve", await api.approve(admin, gameId, "1.0.0", { override: { reason: "random bytes" } }))
    conforms("POST", "/api/admin/games/{gameId}/releases/{version}/approve", await api.approve(admin, gameId, "1.0.0")) // 409
    conforms("POST", "/api/admin/games/{gameId}/releases/{version}/reject", await api.reject(admin, gameId, "1.0.0", "")) // 400
    conforms("GET", "/api/games/{gameId}/releases/{version}/download-url", await api.downloadUrl(creator, gameId, "1.0.0"))
    const releasePath = `/api/admin/games/${gameId}/releases/1.0.0`
    conforms("GET", "/api/admin/games/{gameId}/releases/{version}/files", await api.call("GET", `${releasePath}/files?limit=1`, { token: admin }))
    conforms("GET", "/api/admin/games/{gameId}/releases/{version}/files", await api.call("GET", `${releasePath}/files?limit=0`, { token: admin })) // 400
    conforms("GET", "/api/admin/games/{gameId}/releases/{version}/file", await api.call("GET", `${releasePath}/file`, { token: admin })) // 400
    conforms("GET", "/api/games/{gameId}", await api.call("GET", `/api/games/${gameId}`)) // public view
    conforms("GET", "/api/games/{gameId}/releases/{version}", await api.call("GET", `/api/games/${gameId}/releases/1.0.0`))
    conforms("GET", "/api/games/{gameId}/releases/{version}", await api.call("GET", `/api/games/${gameId}/releases/1.0.0`, { token: creator }))
    conforms("GET", "/api/me/games", await api.call("GET", "/api/me/games", { token: creator }))
    conforms("GET", "/api/catalog", await api.call("GET", "/api/catalog"))
    conforms("GET", "/api/catalog", await api.call("GET", "/api/catalog?limit=0")) // 400
    conforms("GET", "/api/games/by-slug/{slug}", await api.call("GET", "/api/games/by-slug/%ff")) // 404 not_found
    conforms("POST", "/api/session", await api.call("POST", "/api/session", { token: creator }))
    conforms("DELETE", "/api/session", await api.call("DELETE", "/api/session"))
    conforms("DELETE", "/api/session", await api.call("DELETE", "/api/session", { headers: { cookie: "pckgate_session=x", origin: "https://elsewhere.example" } })) // 401
    const userSessions = "/api/admin/users/{userId}/sessions"
    conforms("DELETE", userSessions, await api.call("DELETE", "/api/admin/users/openapi-creator/sessions", { token: admin })) // 204
    conforms("DELETE", userSessions, await api.call("DELETE", "/api/admin/users/openapi-creator/sessions", { token: creator })) // 404
    conforms("DELETE", userSessions, await api.call("DELETE", "/api/admin/users/openapi-creator/sessions")) // 401
    conforms("DELETE", userSessions, await api.call("DELETE", "/api/admin/users/bad%E2%80%AEid/sessions", { token: admin })) // 400
    // The submit page's upload token: the browser session of the service's own pages only.
    const uploadToken = "/api/session/upload-token"
    conforms("POST", uploadToken, await api.call("POST", uploadToken, { headers: { origin: server.baseUrl } })) // 401
    const session = await api.call("POST", "/api/session", { token: creator })
    const cookie = (session.headers.get("set-cookie") ?? "").split(";")[0]!
    const issued = await api.call("POST", uploadToken, { headers: { cookie, origin: server.baseUrl } })
    expect(issued.status).toBe(200)
    conforms("POST", uploadToken, issued)
    conforms("POST", uploadToken, await api.call("POST", uploadToken, { token: creator })) // 401: Bearer callers have their own token
    conforms("GET", "/healthz", await api.call("GET", "/healthz"))
    expect(seen.size).toBeGreaterThanOrEqual(20)
  })
})
