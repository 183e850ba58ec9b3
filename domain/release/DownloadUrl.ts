import { Effect, Option } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { GameViews } from "../../ports/GameViews.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { type Principal, seesAllReleases } from "../auth/Principal.ts"
import { NotFound } from "../errors.ts"
import { Policy } from "../Policy.ts"
import { sha256FromObjectKey } from "./ObjectKey.ts"
import { storedKeyOf } from "./Release.ts"

/**
 * The release `principal` may see, with its game's owner and slug, or NotFound: owners and administrators see every
 * release; anyone else only the active release of a published game. Every unauthorized case looks exactly like an
 * unknown one. The public case is one read of the game's view (ports/GameViews.ts), which may be served from a cache.
 */
export const visibleRelease = Effect.fnUntraced(function*(principal: Principal | null, gameId: string, version: string) {
  // Built only when needed: constructing a tagged error validates its fields.
  const notFound = () => new NotFound({ what: "release" })
  const game = Option.getOrNull(yield* (yield* GameViews).view(gameId))
  if (game === null) return yield* Effect.fail(notFound())
  if (seesAllReleases(principal, game.ownerId)) {
    const release = Option.getOrNull(yield* (yield* ReleaseStore).get(gameId, version))
    if (release === null) return yield* Effect.fail(notFound())
    return { game, release }
  }
  if (game.active === null || game.active.version !== version) return yield* Effect.fail(notFound())
  return { game, release: game.active }
})

/** GET /api/games/{gameId}/releases/{version}/download-url: a short-lived presigned GET (spec §4.5). */
export const downloadUrl = Effect.fnUntraced(function*(principal: Principal, gameId: string, version: string) {
  const { game, release } = yield* visibleRelease(principal, gameId, version)
  const now = yield* (yield* Clock).now
  const { downloadUrlTtlSeconds } = yield* Policy
  // A taken-down release (only its owner and administrators see one) is served from its quarantine key.
  const key = storedKeyOf(release)
  const presigned = yield* (yield* ObjectStorage).presignGet(key, {
    now,
    expiresInSeconds: downloadUrlTtlSeconds,
    downloadName: `${game.slug}-${release.version}.pck`,
  })
  // Read back from the content-addressed key: what the URL serves is what that digest names.
  const sha256 = sha256FromObjectKey(key) ?? release.sha256
  return { url: presigned.url, sha256, expiresAt: presigned.expiresAt }
})
