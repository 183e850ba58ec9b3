// GET /api/admin/games/{gameId}/releases/{version}/diff?against=…: what changed between two releases of a game, by
// content (stored entry hashes), with unified diffs of texts, capabilities added or dropped, and findings compared by
// fingerprint.
import { Effect, Option } from "effect"
import { GameViews } from "../../ports/GameViews.ts"
import { PackFiles } from "../../ports/PackFiles.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import type { Principal } from "../auth/Principal.ts"
import type { Finding } from "../scan/Finding.ts"
import { MAX_UNIFIED_BYTES, type PackFileEntry, type PackFileKind, TEXT_KINDS } from "./PackFile.ts"
import { attachAcceptances, gameAcceptances } from "./Acceptances.ts"
import { existingRelease, packSource, releaseEntries } from "./ReadPack.ts"
import type { DiffQuery } from "./ReadingQueries.ts"
import { requireAdmin } from "./Review.ts"

export interface FileChange {
  readonly path: string
  readonly change: "added" | "removed" | "modified"
  readonly kind: PackFileKind
  readonly unified?: string
  readonly truncated?: boolean
}

/** The identity of a finding across versions: its fingerprint, or what it says when the scanner wrote none. */
export const findingKey = (f: Finding): string => f.fingerprint ?? JSON.stringify([f.rule, f.file, f.pattern, f.message])

/** New (only in `current`), carried (in both; the current copy) and fixed (only in `before`), counting repeats. */
export const compareFindings = (current: ReadonlyArray<Finding>, before: ReadonlyArray<Finding>) => {
  const remaining = new Map<string, Array<Finding>>()
  for (const f of before) remaining.set(findingKey(f), [...(remaining.get(findingKey(f)) ?? []), f])
  const fresh: Array<Finding> = []
  const carried: Array<Finding> = []
  for (const f of current) {
    const match = remaining.get(findingKey(f))
    if (match !== undefined && match.length > 0) {
      match.shift()
      carried.push(f)
    } else fresh.push(f)
  }
  return { new: fresh, carried, fixed: [...remaining.values()].flat() }
}

export const compareCapabilities = (current: ReadonlyArray<string>, before: ReadonlyArray<string>) => ({
  added: current.filter((c) => !before.includes(c)).sort(),
  removed: before.filter((c) => !current.includes(c)).sort(),
})

/** Entries that differ by content; unchanged ones are left out. */
export const changedEntries = (current: ReadonlyArray<PackFileEntry>, before: ReadonlyArray<PackFileEntry>) => {
  const old = new Map(before.map((e) => [e.path, e]))
  const now = new Map(current.map((e) => [e.path, e]))
  const changes: Array<{ readonly path: string; readonly change: FileChange["change"]; readonly entry: PackFileEntry }> = []
  for (const entry of current) {
    const was = old.get(entry.path)
    if (was === undefined) changes.push({ path: entry.path, change: "added", entry })
    else if (was.sha256 !== entry.sha256) changes.push({ path: entry.path, change: "modified", entry })
  }
  for (const entry of before) if (!now.has(entry.path)) changes.push({ path: entry.path, change: "removed", entry })
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

const scanOf = Effect.fnUntraced(function*(gameId: string, version: string) {
  const report = Option.getOrNull(yield* ScanStore.use((s) => s.get(gameId, version)))?.report
  return { findings: report?.findings ?? [], capabilities: Object.keys(report?.capabilities ?? {}) }
})

const withAcceptances = (
  compared: ReturnType<typeof compareFindings>,
  acceptances: Parameters<typeof attachAcceptances>[1],
) => ({
  new: attachAcceptances(compared.new, acceptances),
  carried: attachAcceptances(compared.carried, acceptances),
  fixed: attachAcceptances(compared.fixed, acceptances),
})

export const diffRelease = Effect.fn("diffRelease")(function*(principal: Principal, gameId: string, version: string, query: DiffQuery) {
  yield* requireAdmin(principal)
  const against = query.against ?? null
  const release = yield* existingRelease(gameId, version)
  const base = against !== null
    ? yield* existingRelease(gameId, against)
    : Option.getOrNull(yield* GameViews.use((v) => v.view(gameId)))?.active ?? null
  const current = yield* releaseEntries(release)
  const before = base === null ? [] : yield* releaseEntries(base)
  const changes = changedEntries(current, before)
  const files = yield* texts(changes, release, base)
  const now = yield* scanOf(gameId, version)
  const then = base === null ? { findings: [], capabilities: [] } : yield* scanOf(gameId, base.version)
  return {
    against: base?.version ?? null,
    files,
    capabilities: compareCapabilities(now.capabilities, then.capabilities),
    findings: withAcceptances(compareFindings(now.findings, then.findings), yield* gameAcceptances(gameId)),
  }
})

/** Unified diffs for text kinds: reads only the changed entries of both packs. */
const texts = Effect.fnUntraced(function*(
  changes: ReturnType<typeof changedEntries>,
  release: Parameters<typeof packSource>[0],
  base: Parameters<typeof packSource>[0] | null,
) {
  const packFiles = yield* PackFiles
  const now = yield* packSource(release)
  const then = base === null ? null : yield* packSource(base)
  const textOf = (source: typeof now | null, path: string) =>
    source === null
      ? Effect.succeed<string | null>("")
      : Effect.map(packFiles.read(source, path), (c) => Option.getOrNull(c)?.text ?? null)
  return yield* Effect.forEach(changes, (c) =>
    Effect.gen(function*() {
      const plain: FileChange = { path: c.path, change: c.change, kind: c.entry.kind }
      if (!TEXT_KINDS.has(c.entry.kind)) return plain
      const before = c.change === "added" ? "" : yield* textOf(then, c.path)
      const after = c.change === "removed" ? "" : yield* textOf(now, c.path)
      // A binary scene or resource has no text to compare.
      if (before === null || after === null) return plain
      const { unified, truncated } = packFiles.unifiedDiff(c.path, before, after, MAX_UNIFIED_BYTES)
      return { ...plain, unified, ...(truncated ? { truncated } : {}) }
    }))
})

export type ReleaseDiff = Effect.Success<ReturnType<typeof diffRelease>>
