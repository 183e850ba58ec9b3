import type { ColumnType } from "kysely"

// The tables as Kysely sees them. Timestamps are DATETIME(3) in UTC on MySQL (mysql2 hands back Date objects) and
// ISO-8601 text on SQLite (fixed width, so text order is time order); `SqlDatabase.time` converts both ways.
export type Timestamp = ColumnType<Date | string, Date | string, Date | string>
/** BIGINT: mysql2 returns safe integers as numbers (supportBigNumbers), node:sqlite returns numbers. */
export type Count = ColumnType<number, number, number>

export interface GamesTable {
  id: string
  name: string
  slug: string
  kind: string
  owner_id: string
  manifest_id: string | null
  created_at: Timestamp
  updated_at: Timestamp
  /** The active release (migration 0008); null while the game has none. */
  active_version: ColumnType<string | null, string | null | undefined, string | null>
  first_published_at: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>
  /** The name NFC and lowercased (domain/game/searchKey.ts), for the catalog's prefix search (migration 0010). */
  search_name: ColumnType<string, string | undefined, string>
  /** Why the active release is active (domain/game/Game.ts ActiveReason), who made it so and when (migration 0011). */
  active_cause: ColumnType<string | null, string | null | undefined, string | null>
  active_by: ColumnType<string | null, string | null | undefined, string | null>
  active_since: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>
  /** The version the reason is about: a pointer moved by an instance older than 0011 leaves a reason that is not. */
  active_reason_version: ColumnType<string | null, string | null | undefined, string | null>
  /** The game's lifecycle lease (ports/ReleaseStore.ts takeLifecycleLease): its holder and until when (migration 0011). */
  lifecycle_holder: ColumnType<string | null, string | null | undefined, string | null>
  lifecycle_until: ColumnType<Date | string | null, Date | string | null | undefined, Date | string | null>
}

export interface ReleasesTable {
  game_id: string
  version: string
  sha256: string
  size_bytes: Count
  content_type: string
  object_key: string
  source: string
  status: string
  created_by: string
  created_at: Timestamp
  reviewed_by: string | null
  reviewed_at: Timestamp | null
  rejection_reason: string | null
  /** `on_approval` | `manual` (migration 0008). */
  publish_mode: ColumnType<string, string | undefined, string>
  /** Where a taken-down release's object lives meanwhile; the sweeper keeps it. */
  quarantine_key: ColumnType<string | null, string | null | undefined, string | null>
  takedown_reason: ColumnType<string | null, string | null | undefined, string | null>
  /** `release` | `game` | `game_active` while taken down (migration 0011; null before it). */
  takedown_scope: ColumnType<string | null, string | null | undefined, string | null>
}

export interface UploadIntentsTable {
  id: string
  game_id: string
  version: string
  sha256: string
  size_bytes: Count
  content_type: string
  object_key: string
  created_by: string
  created_at: Timestamp
  expires_at: Timestamp
  publish_mode: ColumnType<string, string | undefined, string>
}

/** One row per (account, endpoint): the row reservations lock, so concurrent reservations serialise across instances. */
export interface BudgetAccountsTable {
  account_id: string
  endpoint: string
}

export interface BudgetSpendsTable {
  id: string
  account_id: string
  endpoint: string
  spent_at: Timestamp
}

export interface Tables {
  games: GamesTable
  releases: ReleasesTable
  upload_intents: UploadIntentsTable
  budget_accounts: BudgetAccountsTable
  budget_spends: BudgetSpendsTable
  scans: ScansTable
  submissions: SubmissionsTable
  change_feed: ChangeFeedTable
  change_feed_head: ChangeFeedHeadTable
  review_claims: ReviewClaimsTable
  approval_overrides: ApprovalOverridesTable
  finding_acceptances: FindingAcceptancesTable
  release_entries: ReleaseEntriesTable
  release_timeline: ReleaseTimelineTable
  webhook_subscriptions: WebhookSubscriptionsTable
}

/** Append-only (adapters/sql/SqlTimeline.ts): one row per state change, in the transaction of the change. */
export interface ReleaseTimelineTable {
  seq: ColumnType<number, never, never>
  game_id: string
  version: string | null
  kind: string
  actor: string
  reason: string | null
  at: Timestamp
}

export interface WebhookSubscriptionsTable {
  id: string
  owner_id: string
  url: string
  secret: string
  created_at: Timestamp
}

export interface ScansTable {
  game_id: string
  version: string
  /** The scan report as JSON. */
  report: string
  scanned_at: Timestamp
  /** The gate's counts and the capability ids (a JSON array), written with the report (migration 0006). */
  error_count: number | null
  warning_count: number | null
  capability_ids: string | null
}

export interface ReviewClaimsTable {
  game_id: string
  version: string
  claimed_by: string
  claimed_until: Timestamp
}

export interface ApprovalOverridesTable {
  game_id: string
  version: string
  reason: string
  approved_by: string
  approved_at: Timestamp
}

export interface FindingAcceptancesTable {
  game_id: string
  fingerprint: string
  accepted_by: string
  accepted_at: Timestamp
  reason: string
}

export interface SubmissionsTable {
  id: string
  game_id: string
  version: string
  created_by: string
  created_at: Timestamp
}

/** One announced change (adapters/sql/SqlChangeFeed.ts); `seq` comes from the head row, never auto-increment. */
export interface ChangeFeedTable {
  seq: Count
  game_id: string
  kind: string
  at: Timestamp
}

/** One row (id 1): the newest sequence given out. Its row lock orders appends by commit. */
export interface ChangeFeedHeadTable {
  id: number
  seq: Count
}

export interface ReleaseEntriesTable {
  game_id: string
  version: string
  /** The release's entries (domain/review/PackFile.ts) as a JSON array, sorted by path. */
  entries: string
  computed_at: Timestamp
}
