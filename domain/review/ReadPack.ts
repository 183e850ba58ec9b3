// Reading a release's pack as a reviewer (issue 15): its files, one file with its findings, and what changed against
// another release. Administrators only; everyone else gets the 404 of an unknown route.
import { Effect, Option } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { PackFiles } from "../../ports/PackFiles.ts"
import { ReleaseEntryStore } from "../../ports/ReleaseEntryStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import type { Principal } from "../auth/Principal.ts"
import { InvalidRequest, NotFound } from "../errors.ts"
import type { Release } from "../release/Release.ts"
import { releaseByteSource } from "../scan/storageByteSource.ts"
import type { Finding } from "../scan/Finding.ts"
import { attachAcceptances, gameAcceptances } from "./Acceptances.ts"
import { decodeCursor, encodeCursor } from "./cursor.ts"
import { builtInParts, type PackFileEntry, pathProblem } from "./PackFile.ts"
import { existingGame, requireAdmin } from "./Review.ts"

/** The game must exist (404 game_not_found_or_forbidden, as for every endpoint about a game), then the release (404 not_found). */
export const existingRelease = Effect.fnUntraced(function*(gameId: string, version: string) {
  yield* existingGame(gameId)
  const release = Option.getOrNull(yield* ReleaseStore.use((r) => r.get(gameId, version)))
  return release === null ? yield* new NotFound({ what: "release" }) : release
})

/**
 * Smallest storage read of a file view: a few neighbouring small reads (header fields, a stub) cost one call, without
 * reading far past what the view needs. Listing reads every entry in directory order, so it reads ahead further.
 */
const VIEW_READ_BYTES = 512
const LISTING_READ_BYTES = 256 * 1024

/** The stored pack as random access over ranged reads, wherever it is now (see releaseByteSource). */
export const packSource = (release: Release, readAheadBytes = VIEW_READ_BYTES) => releaseByteSource(release, { readAheadBytes })

/** The release's entries with their hashes: stored, or computed now (one streamed read of the pack) and stored. */
export const releaseEntries = Effect.fnUntraced(function*(release: Release) {
  const stored = Option.getOrNull(yield* ReleaseEntryStore.use((s) => s.get(release.gameId, release.version)))
  if (stored !== null) return stored.entries
  const source = yield* packSource(release, LISTING_READ_BYTES)
  const entries = yield* PackFiles.use((p) => p.index(source))
  const computedAt = yield* Clock.use((c) => c.now)
  yield* ReleaseEntryStore.use((s) => s.save({ gameId: release.gameId, version: release.version, entries, computedAt }))
  return entries
})

/** The findings a file's view shows: built-in scripts of binary scenes count their own lines (`embeddedIn`). */
export const findingsOf = (findings: ReadonlyArray<Finding>, path: string): ReadonlyArray<Finding> => {
  const { file, subResource } = builtInParts(path)
  return findings.filter((f) =>
    subResource === null
      ? f.file === file && f.embeddedIn === undefined
      : f.embeddedIn !== undefined && f.embeddedIn.resource === file && f.embeddedIn.subResource === subResource
  )
}

const reportFindings = Effect.fnUntraced(function*(gameId: string, version: string) {
  const scan = Option.getOrNull(yield* ScanStore.use((s) => s.get(gameId, version)))
  return scan?.report.findings ?? []
})

export const DEFAULT_FILES_LIMIT = 1000

/** `limit` and `cursor` as the query string gave them. */
export interface PageQuery {
  readonly limit: string | null
  readonly cursor: string | null
}

const pageOf = (query: PageQuery) => {
  const problems: Array<string> = []
  let limit = DEFAULT_FILES_LIMIT
  if (query.limit !== null) {
    limit = /^\d{1,5}$/.test(query.limit) ? Number(query.limit) : NaN
    if (!(limit >= 1 && limit <= 1000)) problems.push(`limit: an integer from 1 to 1000 (got ${JSON.stringify(query.limit.slice(0, 40))})`)
  }
  const after = query.cursor === null ? null : decodeCursor(query.cursor)
  if (query.cursor !== null && after === null) problems.push("cursor: not a cursor of this listing; pass nextCursor from the previous page exactly, or omit it to start over")
  return problems.length > 0 ? Effect.fail(new InvalidRequest({ problems })) : Effect.succeed({ limit, after })
}

/** GET /api/admin/games/{gameId}/releases/{version}/files: every entry, paged by path. */
export const listReleaseFiles = Effect.fn("listReleaseFiles")(function*(principal: Principal, gameId: string, version: string, query: PageQuery) {
  yield* requireAdmin(principal)
  const { limit, after } = yield* pageOf(query)
  const release = yield* existingRelease(gameId, version)
  const entries = yield* releaseEntries(release)
  const findings = yield* reportFindings(gameId, version)
  const start = after === null ? 0 : entries.findIndex((e) => e.path > after)
  const page = start === -1 ? [] : entries.slice(start, start + limit)
  const last = page.at(-1)
  const more = start !== -1 && start + limit < entries.length
  return {
    files: page.map((entry) => ({ ...entry, findingCount: findingsOf(findings, entry.path).length })),
    nextCursor: more && last !== undefined ? encodeCursor(last.path) : null,
  }
})

/** GET /api/admin/games/{gameId}/releases/{version}/file?path=…: one entry's content and its findings. */
export const readReleaseFile = Effect.fn("readReleaseFile")(function*(principal: Principal, gameId: string, version: string, path: string | null) {
  yield* requireAdmin(principal)
  const problem = pathProblem(path ?? "")
  if (path === null || problem !== null) return yield* new InvalidRequest({ problems: [problem ?? "path: required"] })
  const release = yield* existingRelease(gameId, version)
  const source = yield* packSource(release)
  const content = Option.getOrNull(yield* PackFiles.use((p) => p.read(source, path)))
  if (content === null) return yield* new NotFound({ what: "file" })
  const findings = attachAcceptances(findingsOf(yield* reportFindings(gameId, version), path), yield* gameAcceptances(gameId))
  return { ...content, findings }
})

export type ReleaseFile = Effect.Success<ReturnType<typeof readReleaseFile>>
export type FileListing = Effect.Success<ReturnType<typeof listReleaseFiles>>
export type { PackFileEntry }
