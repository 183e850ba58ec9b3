import { Context, Layer } from "effect"
import type { ActiveReason, Game } from "../../domain/game/Game.ts"
import type { Release, UploadIntent } from "../../domain/release/Release.ts"
import type { ApprovalOverride, FindingAcceptance, ReviewClaim } from "../../ports/ReviewGateStore.ts"
import type { ScanRecord } from "../../ports/ScanStore.ts"
import type { Submission } from "../../ports/SubmissionStore.ts"
import type { StoredTimelineEvent } from "../../domain/timeline/TimelineEvent.ts"
import type { ChangeLog } from "./MemoryChangeFeed.ts"
import type { NotificationOutbox } from "../../ports/NotificationOutbox.ts"
import type { WebhookSubscription } from "../../ports/WebhookSubscriptions.ts"
import { makeMemoryNotificationOutbox } from "../notifier/MemoryNotificationOutbox.ts"

/**
 * The memory stores' shared state, like one database: a write that spans games, releases and scans (a multipart
 * submission) happens in one synchronous step, so it is all or nothing and concurrent calls cannot interleave.
 */
export interface Tables {
  readonly games: Map<string, Game>
  /** slug → game id */
  readonly slugs: Map<string, string>
  /** `${gameId}\u0000${version}` → release */
  readonly releases: Map<string, Release>
  readonly intents: Map<string, UploadIntent>
  /** `${gameId}\u0000${version}` → scan */
  readonly scans: Map<string, ScanRecord>
  readonly submissions: Map<string, Submission>
  readonly changes: ChangeLog
  /** `${gameId}\u0000${version}` → the review claim (ports/ReviewGateStore.ts) */
  readonly claims: Map<string, ReviewClaim>
  /** `${gameId}\u0000${version}` → the approval's override */
  readonly overrides: Map<string, ApprovalOverride>
  /** `${gameId}\u0000${fingerprint}` → an accepted finding */
  readonly acceptances: Map<string, FindingAcceptance>
  /** game id → its active release and first-published time (the SQL games row's pointer columns) */
  readonly pointers: Map<string, GamePointer>
  /** game id → who holds its lifecycle lease, until when (ports/ReleaseStore.ts takeLifecycleLease) */
  readonly leases: Map<string, { readonly holder: string; readonly until: Date }>
  /** Every timeline event, oldest first; `seq` is the index + 1. */
  readonly timeline: Array<StoredTimelineEvent>
  /** Creators' webhook subscriptions, by id. */
  readonly webhooks: Map<string, WebhookSubscription>
  /** Creator webhook deliveries are enqueued here in the step that appends their timeline event (layerMemoryRecordsWithOutbox). */
  readonly outbox: NotificationOutbox["Service"]
}

export interface GamePointer {
  readonly activeVersion: string | null
  readonly firstPublishedAt: Date | null
  readonly activeReason: ActiveReason | null
}

/** The game with its pointer: the pointer lives apart (like its own columns), so writing a game back never resets it. */
export const withPointer = (pointers: Tables["pointers"], game: Game): Game => {
  const pointer = pointers.get(game.id)
  return { ...game, activeVersion: pointer?.activeVersion ?? null, firstPublishedAt: pointer?.firstPublishedAt ?? null, activeReason: pointer?.activeReason ?? null }
}

export const releaseKey = (gameId: string, version: string) => `${gameId}\u0000${version}`

export class MemoryTables extends Context.Service<MemoryTables, Tables>()("pckgate/adapters/memory/MemoryTables") {}

export const layerMemoryTables = Layer.sync(MemoryTables, () => ({
  games: new Map(),
  slugs: new Map(),
  releases: new Map(),
  intents: new Map(),
  scans: new Map(),
  submissions: new Map(),
  changes: { latest: 0, entries: [] },
  claims: new Map(),
  overrides: new Map(),
  acceptances: new Map(),
  pointers: new Map(),
  leases: new Map(),
  timeline: [],
  webhooks: new Map(),
  outbox: makeMemoryNotificationOutbox(),
}))
