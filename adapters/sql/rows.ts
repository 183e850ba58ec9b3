// Row mappings shared by several stores: a game is created by the release API and by a multipart submission alike,
// and a release is written by finalize and by a multipart submission alike.
import type { Insertable, Selectable } from "kysely"
import type { ActiveReason, Game } from "../../domain/game/Game.ts"
import { searchKey } from "../../domain/game/searchKey.ts"
import type { Release } from "../../domain/release/Release.ts"
import type { GamesTable, ReleasesTable } from "./schema.ts"
import type { TimeCodec } from "./SqlDatabase.ts"

export const gameRow = (game: Game, time: TimeCodec): Insertable<GamesTable> => ({
  id: game.id,
  name: game.name,
  search_name: searchKey(game.name),
  slug: game.slug,
  kind: game.kind,
  owner_id: game.ownerId,
  manifest_id: game.manifestId,
  created_at: time.write(game.createdAt),
  updated_at: time.write(game.updatedAt),
})

export const gameFromRow = (row: Selectable<GamesTable>, time: TimeCodec): Game => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  kind: row.kind,
  ownerId: row.owner_id,
  manifestId: row.manifest_id,
  createdAt: time.read(row.created_at),
  updatedAt: time.read(row.updated_at),
  activeVersion: row.active_version,
  firstPublishedAt: row.first_published_at === null ? null : time.read(row.first_published_at),
  // A reason recorded for another version (the pointer moved by an instance that predates migration 0011) is not shown.
  activeReason: row.active_version === null || row.active_reason_version !== row.active_version || row.active_cause == null ||
      row.active_by == null || row.active_since == null
    ? null
    : { cause: row.active_cause as ActiveReason["cause"], actor: row.active_by, at: time.read(row.active_since) },
})

/** The pointer columns a lifecycle step writes: the active version and why it is active (none without one). */
export const pointerColumns = (activeVersion: string | null, reason: ActiveReason | null, time: TimeCodec) => ({
  active_version: activeVersion,
  active_cause: activeVersion === null ? null : reason?.cause ?? null,
  active_by: activeVersion === null ? null : reason?.actor ?? null,
  active_since: activeVersion === null || reason === null ? null : time.write(reason.at),
  active_reason_version: activeVersion === null || reason === null ? null : activeVersion,
})

export const releaseRow = (release: Release, time: TimeCodec): Insertable<ReleasesTable> => ({
  game_id: release.gameId,
  version: release.version,
  sha256: release.sha256,
  size_bytes: release.sizeBytes,
  content_type: release.contentType,
  object_key: release.objectKey,
  source: release.source,
  status: release.status,
  created_by: release.createdBy,
  created_at: time.write(release.createdAt),
  reviewed_by: release.reviewedBy,
  reviewed_at: release.reviewedAt === null ? null : time.write(release.reviewedAt),
  rejection_reason: release.rejectionReason,
  publish_mode: release.publishMode ?? "on_approval",
  quarantine_key: release.quarantineKey ?? null,
  takedown_reason: release.takedownReason ?? null,
  takedown_scope: release.takedownScope ?? null,
})

export const releaseFromRow = (row: Selectable<ReleasesTable>, time: TimeCodec): Release => ({
  gameId: row.game_id,
  version: row.version,
  sha256: row.sha256,
  sizeBytes: Number(row.size_bytes),
  contentType: row.content_type,
  objectKey: row.object_key,
  source: row.source as Release["source"],
  status: row.status as Release["status"],
  createdBy: row.created_by,
  createdAt: time.read(row.created_at),
  reviewedBy: row.reviewed_by,
  reviewedAt: row.reviewed_at === null ? null : time.read(row.reviewed_at),
  rejectionReason: row.rejection_reason,
  publishMode: row.publish_mode as Release["publishMode"] & string,
  quarantineKey: row.quarantine_key,
  takedownReason: row.takedown_reason,
  takedownScope: (row.takedown_scope ?? null) as Release["takedownScope"] & (string | null),
})
