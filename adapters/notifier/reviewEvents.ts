// The webhook events of the review queue: what their body holds and which fact each one is about.
import type { Release } from "../../domain/release/Release.ts"
import type { OutboxEvent } from "../../ports/NotificationOutbox.ts"
import type { ReviewRequested } from "../../ports/ReviewNotifier.ts"
import { randomId } from "../system/RandomIds.ts"

/** Event types as receivers see them (`type` in the body, and the `pckgate-webhook-event` header). */
export const REVIEW_EVENT_TYPES = {
  release_finalized: "release.finalized",
  submission_received: "submission.received",
} as const satisfies Record<ReviewRequested["kind"], string>

/**
 * One notification per release: finalize and a multipart submission each create exactly one (game, version) row, and
 * the dispatcher's recovery pass derives the same key from the row. (Versions never contain ':'.)
 */
export const releaseDedupeKey = (gameId: string, version: string): string => `release:${gameId}:${version}`

/** A new delivery id: `evt_` + time-ordered random characters. */
export const newEventId = (): string => randomId("evt")

/** The event with its exact body `{id, type, createdAt, data: {gameId, version, sha256, sizeBytes, …}}`. */
export const reviewEvent = (id: string, event: ReviewRequested): OutboxEvent => {
  const { kind, at, ...data } = event
  const type = REVIEW_EVENT_TYPES[kind]
  return {
    id,
    dedupeKey: releaseDedupeKey(event.gameId, event.version),
    type,
    createdAt: at,
    body: JSON.stringify({ id, type, createdAt: at.toISOString(), data }),
  }
}

/** The event a stored release stands for (recovery of a notification lost between commit and enqueue). */
export const reviewEventForRelease = (id: string, release: Release): OutboxEvent =>
  reviewEvent(id, {
    kind: release.source === "multipart" ? "submission_received" : "release_finalized",
    gameId: release.gameId,
    version: release.version,
    sha256: release.sha256,
    sizeBytes: release.sizeBytes,
    at: release.createdAt,
  })
