import { credentialCoversGame } from "../credentials/Credential.ts"
import { Effect, Option } from "effect"
import { GameStore } from "../../ports/GameStore.ts"
import { GameViews } from "../../ports/GameViews.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { type Principal, seesAllReleases } from "../auth/Principal.ts"
import { NotFound } from "../errors.ts"
import { FIRST_PAGE, ownerGamesPage } from "../paging/lists.ts"
import type { PageParams } from "../paging/Page.ts"
import { visibleRelease } from "../release/DownloadUrl.ts"
import { publishModeOf, type Release } from "../release/Release.ts"
import { queuePosition } from "../review/QueuePosition.ts"
import { catalogStatus } from "../review/ReviewMachine.ts"
import { scanState } from "../review/Review.ts"
import type { Game } from "./Game.ts"

/** A release as its owner and administrators see it. */
export const releaseView = (release: Release) => ({
  version: release.version,
  status: release.status,
  sha256: release.sha256,
  sizeBytes: release.sizeBytes,
  source: release.source,
  createdAt: release.createdAt,
  reviewedAt: release.reviewedAt,
  rejectionReason: release.rejectionReason,
  publishMode: publishModeOf(release),
  takedownReason: release.takedownReason ?? null,
})

/** A release as the public sees it: only what a downloader needs to verify. */
const publicReleaseView = (release: Release) => ({
  version: release.version,
  sha256: release.sha256,
  sizeBytes: release.sizeBytes,
  publishedAt: release.reviewedAt,
})

/** The owner's view: every release with status and rejection reason. */
export const ownerGameView = (game: Game, releases: ReadonlyArray<Release>) => ({
  gameId: game.id,
  name: game.name,
  slug: game.slug,
  kind: game.kind,
  ownerId: game.ownerId,
  status: catalogStatus(releases, game.activeVersion ?? null),
  activeVersion: game.activeVersion ?? null,
  activeReason: game.activeVersion == null ? null : game.activeReason ?? null,
  createdAt: game.createdAt,
  updatedAt: game.updatedAt,
  releases: releases.map(releaseView),
})

const publicGameView = (game: Game, active: Release) => ({
  gameId: game.id,
  name: game.name,
  slug: game.slug,
  kind: game.kind,
  status: "published" as const,
  activeVersion: active.version,
  activeRelease: publicReleaseView(active),
})

/** GET /api/me/games: a page of the caller's games, oldest first, with all their releases. */
export const myGames = Effect.fn("myGames")(function*(principal: Principal, pageParams: PageParams = FIRST_PAGE) {
  const page = yield* ownerGamesPage(principal.userId, pageParams)
  // A credential limited to some games sees those only (a publisher's token: its one game); pages may come out short.
  const games = page.items.filter((game) => credentialCoversGame(principal.credential, game.id))
  const nextCursor = page.nextCursor
  const releases = yield* ReleaseStore
  const views = yield* Effect.forEach(games, (game) => Effect.map(releases.listByGame(game.id), (rs) => ownerGameView(game, rs)))
  return { games: views, nextCursor }
})

/** GET /api/games/{gameId}: owners and administrators get everything; anyone else the public record of a published game. */
export const gameDetail = Effect.fn("gameDetail")(function*(principal: Principal | null, gameId: string) {
  const game = Option.getOrNull(yield* GameStore.use((g) => g.get(gameId)))
  if (game === null) return yield* new NotFound({ what: "game" })
  const releases = yield* ReleaseStore.use((r) => r.listByGame(gameId))
  if (seesAllReleases(principal, game.ownerId)) return ownerGameView(game, releases)
  const active = releases.find((r) => r.version === game.activeVersion) ?? null
  if (active === null) return yield* new NotFound({ what: "game" })
  return publicGameView(game, active)
})

/** GET /api/games/{gameId}/releases/{version}. */
export const releaseDetail = Effect.fn("releaseDetail")(function*(principal: Principal | null, gameId: string, version: string) {
  const { game, release } = yield* visibleRelease(principal, gameId, version)
  if (!seesAllReleases(principal, game.ownerId)) return { gameId, ...publicReleaseView(release) }
  // Review fields (issue 15) only in the owner's and administrators' views; while pending, also where it stands in the
  // review queue.
  const override = Option.getOrNull(yield* ReviewGateStore.use((g) => g.getOverride(gameId, version)))
  const queue = release.status === "pending_review" ? yield* queuePosition(release) : null
  return { gameId, ...releaseView(release), scan: yield* scanState(gameId, version), approvalOverride: override, ...(queue === null ? {} : { queue }) }
})

/** GET /api/catalog: published games with their active release, most recently published first. */
export const catalog = Effect.fn("catalog")(function*() {
  const active = new Map((yield* GameViews.use((views) => views.listActive())).map((release) => [release.gameId, release]))
  const games = yield* GameStore.use((g) => g.getMany([...active.keys()]))
  return games
    .flatMap((game) => {
      const release = active.get(game.id)
      return release === undefined ? [] : [publicGameView(game, release)]
    })
    .sort((a, b) => (b.activeRelease.publishedAt?.getTime() ?? 0) - (a.activeRelease.publishedAt?.getTime() ?? 0))
})
