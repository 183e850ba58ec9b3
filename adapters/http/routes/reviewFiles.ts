import { Effect } from "effect"
import { diffRelease } from "../../../domain/review/DiffReleases.ts"
import { listReleaseFiles, readReleaseFile } from "../../../domain/review/ReadPack.ts"
import { DiffQuery, FileQuery, FilesQuery } from "../../../domain/review/ReadingQueries.ts"
import { ReleasePath } from "../../../domain/release/ReleasePath.ts"
import * as Wire from "../openapi/reviewFileSchemas.ts"
import { notYourGameOrRelease } from "../pathRefusals.ts"
import { json } from "../respond.ts"
import type { Route } from "../route.ts"
import { defineRoute } from "../routeInput.ts"

// Reading a release's pack (issue 15): administrators only; the admin guard answers 404 not_found to anyone else.

const RELEASE = "/api/admin/games/:gameId/releases/:version"

/** The process's CPU time so far, in milliseconds (Node and Deno; null where the runtime has no cpuUsage). */
const cpuMilliseconds = (): number | null => {
  const usage = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process?.cpuUsage?.()
  return usage === undefined ? null : (usage.user + usage.system) / 1000
}

/**
 * Adds `Server-Timing: handler;dur=<ms>, cpu;dur=<ms>`: the handler's own wall time, from its start (after the admin
 * check and the input's decoding) through the use case, its storage and database reads and the JSON serialisation, but not the HTTP parsing or
 * the sending of the body; and the process's CPU time meanwhile (the same work, less the waits, plus whatever else the
 * process ran then). `npm run bench reading` checks its goals against these.
 */
const serverTimed = (handle: Route["handle"]): Route["handle"] => (ctx) =>
  Effect.suspend(() => {
    const started = performance.now()
    const cpuAtStart = cpuMilliseconds()
    return Effect.map(handle(ctx), (response) => {
      const cpuAtEnd = cpuMilliseconds()
      const cpu = cpuAtStart === null || cpuAtEnd === null ? "" : `, cpu;dur=${(cpuAtEnd - cpuAtStart).toFixed(1)}`
      response.headers.set("server-timing", `handler;dur=${(performance.now() - started).toFixed(1)}${cpu}`)
      return response
    })
  })

/** The route with its handler's time in `Server-Timing` (serverTimed). */
const timed = (route: Route): Route => ({ ...route, handle: serverTimed(route.handle) })

export const reviewFileRoutes: ReadonlyArray<Route> = [
  timed(defineRoute({
    method: "GET",
    path: `${RELEASE}/files`,
    doc: {
      summary: "Every entry of the pack by the creator's path, with kind, SHA-256 and finding count; `limit` 1-1000 (default 1000), `cursor` (administrators)",
      access: "admin",
      success: [200, Wire.ReleaseFiles],
      errors: ["GameNotFoundOrForbidden", "NotFound"],
    },
    params: ReleasePath,
    paramsNotFound: notYourGameOrRelease,
    query: FilesQuery,
    handle: (_ctx, { principal, params, query }) =>
      Effect.map(listReleaseFiles(principal, params.gameId, params.version, query), (listing) => json(200, listing)),
  })),
  timed(defineRoute({
    method: "GET",
    path: `${RELEASE}/file`,
    doc: {
      summary: "One entry's text (or the first 64 bytes, hex, of a binary one) and its findings; `path` as listed by /files (administrators)",
      access: "admin",
      success: [200, Wire.ReleaseFile],
      errors: ["GameNotFoundOrForbidden", "NotFound"],
    },
    params: ReleasePath,
    paramsNotFound: notYourGameOrRelease,
    query: FileQuery,
    handle: (ctx, { principal, params, query }) =>
      Effect.map(readReleaseFile(principal, params.gameId, params.version, query), (file) => json(200, { ...file, findings: ctx.withDocsUrls(file.findings) })),
  })),
  timed(defineRoute({
    method: "GET",
    path: `${RELEASE}/diff`,
    doc: {
      summary: "Files changed against `against` (default: the active release), with unified diffs, capabilities and findings compared (administrators)",
      access: "admin",
      success: [200, Wire.ReleaseDiff],
      errors: ["GameNotFoundOrForbidden", "NotFound"],
    },
    params: ReleasePath,
    paramsNotFound: notYourGameOrRelease,
    query: DiffQuery,
    handle: (ctx, { principal, params, query }) =>
      Effect.map(diffRelease(principal, params.gameId, params.version, query), (diff) => {
        const { new: fresh, carried, fixed } = diff.findings
        return json(200, { ...diff, findings: { new: ctx.withDocsUrls(fresh), carried: ctx.withDocsUrls(carried), fixed: ctx.withDocsUrls(fixed) } })
      }),
  })),
]
