import { appendTimelineEvent } from "./memoryLifecycle.ts"
import { Effect, Layer, Option } from "effect"
import { SlugTaken, VersionExists } from "../../domain/errors.ts"
import { SubmissionStore, type SubmissionCommitOutcome } from "../../ports/SubmissionStore.ts"
import { appendChange } from "./MemoryChangeFeed.ts"
import { MemoryTables, releaseKey } from "./MemoryTables.ts"

export const layerMemorySubmissionStore = Layer.effect(
  SubmissionStore,
  MemoryTables.useSync((tables) => {
    const { games, slugs, releases, scans, submissions } = tables
    return SubmissionStore.of({
      // Every check first, then every write, in one synchronous step: all or nothing.
      commit: ({ game, newGame, release, submission, scan, actor: credentialActor }) =>
        Effect.suspend((): Effect.Effect<SubmissionCommitOutcome, VersionExists | SlugTaken> => {
          // The unique manifest id, as the SQL schema's games_manifest_id_unique enforces it.
          const manifestIdTaken = newGame && game.manifestId !== null && [...games.values()].some((g) => g.manifestId === game.manifestId)
          if (manifestIdTaken) return Effect.succeed("manifest_id_taken")
          const key = releaseKey(release.gameId, release.version)
          if (releases.has(key)) return Effect.fail(new VersionExists({ gameId: release.gameId, version: release.version }))
          if (newGame && slugs.has(game.slug)) return Effect.fail(new SlugTaken({ slug: game.slug }))
          if (newGame) slugs.set(game.slug, game.id)
          const renamed = !newGame && games.get(game.id)?.name !== game.name
          games.set(game.id, game)
          releases.set(key, release)
          scans.set(key, scan)
          submissions.set(submission.id, submission)
          const actor = credentialActor ?? (`user:${submission.createdBy}` as const)
          if (newGame) appendTimelineEvent(tables, { gameId: game.id, version: null, kind: "game_created", actor, reason: null, at: game.createdAt })
          appendTimelineEvent(tables, { gameId: game.id, version: submission.version, kind: "submitted", actor, reason: null, at: submission.createdAt })
          appendTimelineEvent(tables, { gameId: game.id, version: scan.version, kind: "scanned", actor: "system", reason: null, at: scan.scannedAt })
          // The catalog shows and searches names (SqlSubmissionStore.ts does the same).
          if (renamed) appendChange(tables.changes, { gameId: game.id, kind: "renamed", at: game.updatedAt })
          return Effect.succeed(renamed ? "renamed" : "committed")
        }),
      get: (id) => Effect.sync(() => Option.fromNullishOr(submissions.get(id))),
    })
  }),
)
