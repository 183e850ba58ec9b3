// The HTTP adapter (`pckgate/http`): `makeApp` builds the h3 app as a web `fetch` handler over a runtime that provides
// every port (AppServices). Serve it with any server (the app in apps/server uses srvx), or call `fetch` in tests.
export { API_ROUTES, type App, type AppOptions, makeApp, type Runner } from "./App.ts"
export { layerCapturedLogs, layerJsonLogger, type LogLine } from "../observability/jsonLogger.ts"
export { DEPENDENCY_FAILURE, ERROR_TABLE, type StatusAndCode } from "./errorTable.ts"
export { errorResponse, json, renderDomainError } from "./respond.ts"
export { type AppServices, principalFor, type Route, type RouteContext, type RouteDoc } from "./route.ts"
export { makeSessionCodec, SESSION_COOKIE, type SessionCodec } from "./session.ts"
// The signer the self-served stores (memory, local disk) presign with; pass the same one to makeApp as `signer`.
export { SignedUrls } from "../signed-urls/SignedUrls.ts"
export { makeUrlSigner, PUT_HEADERS, STORAGE_PATH_PREFIX, type UrlSigner, type VerifiedRequest } from "../signed-urls/UrlSigner.ts"
