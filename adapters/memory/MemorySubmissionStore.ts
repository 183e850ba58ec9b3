import { Effect, Layer, Option } from "effect"
import { SlugTaken, VersionExists } from "../../domain/errors.ts"
import { SubmissionStore } from "../../ports/SubmissionStore.ts"
import { MemoryTables, releaseKey } from "./MemoryTables.ts"

export const layerMemorySubmissionStore = Layer.effect(
  SubmissionStore,
  MemoryTables.useSync(({ games, slugs, releases, scans, submissions }) =>
    SubmissionStore.of({
      // Every check first, then every write, in one synchronous step: all or nothing.
      commit: ({ game, newGame, release, submission, scan }) =>
        Effect.suspend((): Effect.Effect<void, VersionExists | SlugTaken> => {
          const key = releaseKey(release.gameId, release.version)
          if (releases.has(key)) return Effect.fail(new VersionExists({ gameId: release.gameId, version: release.version }))
          if (newGame && slugs.has(game.slug)) return Effect.fail(new SlugTaken({ slug: game.slug }))
          if (newGame) slugs.set(game.slug, game.id)
          games.set(game.id, game)
          releases.set(key, release)
          scans.set(key, scan)
          submissions.set(submission.id, submission)
          return Effect.void
        }),
      get: (id) => Effect.sync(() => Option.fromNullishOr(submissions.get(id))),
    })
  ),
)
