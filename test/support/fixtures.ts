// Builders for test data. Every builder takes a unique suffix so suites can share one store without colliding.
import type { Game } from "../../domain/game/Game.ts"
import { releaseObjectKey } from "../../domain/release/ObjectKey.ts"
import type { Release, UploadIntent } from "../../domain/release/Release.ts"

let counter = 0
/** A string unique within this test process. */
export const unique = (prefix = "t"): string => `${prefix}${process.pid.toString(36)}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 6)}`

export const at = (iso: string) => new Date(iso)

export const aGame = (overrides: Partial<Game> = {}): Game => {
  const id = overrides.id ?? unique("gm_")
  return {
    id,
    name: "A Game",
    slug: id.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
    kind: "engine",
    ownerId: unique("user-"),
    manifestId: null,
    createdAt: at("2026-03-04T05:06:07.891Z"),
    updatedAt: at("2026-03-04T05:06:07.891Z"),
    activeVersion: null,
    firstPublishedAt: null,
    activeReason: null,
    ...overrides,
  }
}

export const SHA_A = "a".repeat(64)
export const SHA_B = "b".repeat(64)

export const anIntent = (gameId: string, overrides: Partial<UploadIntent> = {}): UploadIntent => {
  const version = overrides.version ?? "1.0.0"
  const sha256 = overrides.sha256 ?? SHA_A
  return {
    id: unique("ui_"),
    gameId,
    version,
    sha256,
    sizeBytes: 4096,
    contentType: "application/octet-stream",
    objectKey: releaseObjectKey(gameId, version, sha256),
    createdBy: "owner",
    createdAt: at("2026-03-04T05:06:07.891Z"),
    expiresAt: at("2026-03-05T05:06:07.891Z"),
    publishMode: "on_approval",
    ...overrides,
  }
}

export const aReleaseFor = (intent: UploadIntent, overrides: Partial<Release> = {}): Release => ({
  gameId: intent.gameId,
  version: intent.version,
  sha256: intent.sha256,
  sizeBytes: intent.sizeBytes,
  contentType: intent.contentType,
  objectKey: intent.objectKey,
  source: "release_api",
  status: "pending_review",
  createdBy: intent.createdBy,
  createdAt: at("2026-03-04T06:00:00.123Z"),
  reviewedBy: null,
  reviewedAt: null,
  rejectionReason: null,
  publishMode: "on_approval",
  quarantineKey: null,
  takedownReason: null,
  takedownScope: null,
  ...overrides,
})
