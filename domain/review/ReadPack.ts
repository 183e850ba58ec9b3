// Reading a release's pack as a reviewer (issue 15): its files, one file with its findings, and what changed against
// another release. Administrators only; everyone else gets the 404 of an unknown route.
import { Effect, Option } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { PackFiles } from "../../ports/PackFiles.ts"
import { ReleaseEntryStore } from "../../ports/ReleaseEntryStore.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import type { Principal } from "../auth/Principal.ts"
import { NotFound } from "../errors.ts"
import type { Release } from "../release/Release.ts"
import { releaseByteSource } from "../scan/storageByteSource.ts"
import type { Finding } from "../scan/Finding.ts"
import { attachAcceptances, gameAcceptances } from "./Acceptances.ts"
import { encodeCursor } from "./cursor.ts"
import { builtInParts, type PackFileEntry } from "./PackFile.ts"
import { DEFAULT_FILES_LIMIT, type FileQuery, type FilesQuery } from "./ReadingQueries.ts"
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

/** GET /api/admin/games/{gameId}/releases/{version}/files: every entry, paged by path. */
export const listReleaseFiles = Effect.fn("listReleaseFiles")(function*(principal: Principal, gameId: string, version: string, query: FilesQuery) {
  yield* requireAdmin(principal)
  const limit = query.limit ?? DEFAULT_FILES_LIMIT
  const after = query.cursor ?? null
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
export const readReleaseFile = Effect.fn("readReleaseFile")(function*(principal: Principal, gameId: string, version: string, query: FileQuery) {
  yield* requireAdmin(principal)
  const { path } = query
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
