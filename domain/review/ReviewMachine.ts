import type { CatalogStatus } from "../game/Game.ts"
import type { Release, ReleaseStatus } from "../release/Release.ts"

// Spec §3 as data: the release transitions an administrator can cause, and how a game's catalog status follows.

export type ReviewEvent = { readonly type: "approve" } | { readonly type: "reject"; readonly reason: string }

const TRANSITIONS: Record<ReleaseStatus, Partial<Record<ReviewEvent["type"], ReleaseStatus>>> = {
  pending_review: { approve: "approved", reject: "rejected" },
  approved: {},
  rejected: {},
}

/** The release status after `event`, or null when the event is not allowed from `status`. */
export const nextReleaseStatus = (status: ReleaseStatus, event: ReviewEvent): ReleaseStatus | null =>
  TRANSITIONS[status][event.type] ?? null

/** The active release: the most recently approved one (approval moves the pointer; rejection never does). */
export const activeRelease = (releases: ReadonlyArray<Release>): Release | null => {
  let active: Release | null = null
  for (const release of releases) {
    if (release.status !== "approved" || release.reviewedAt === null) continue
    if (active === null || compareApproval(release, active) > 0) active = release
  }
  return active
}

const compareApproval = (a: Release, b: Release): number =>
  a.reviewedAt!.getTime() - b.reviewedAt!.getTime() ||
  a.createdAt.getTime() - b.createdAt.getTime() ||
  (a.version < b.version ? -1 : a.version > b.version ? 1 : 0)

/**
 * Catalog status is derived from the releases, never stored:
 * an approved release → published; otherwise a pending one (or none at all) → review; otherwise → rejected.
 */
export const catalogStatus = (releases: ReadonlyArray<Release>): CatalogStatus => {
  if (releases.some((r) => r.status === "approved")) return "published"
  if (releases.length === 0 || releases.some((r) => r.status === "pending_review")) return "review"
  return "rejected"
}
