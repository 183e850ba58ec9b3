import { Effect, Option } from "effect"
import { GameStore } from "../../ports/GameStore.ts"
import { SlugTaken } from "../errors.ts"
import { firstFreeSlug, SLUG_MAX_LENGTH, slugFromName } from "./Slug.ts"

/** Room for a `-<n>` suffix: every candidate of a derived slug starts with this much of the base. */
const CANDIDATE_STEM_LENGTH = SLUG_MAX_LENGTH - 6
/** Inserts that lose their slug to a concurrent one before the last SlugTaken is answered. */
const MAX_SLUG_ATTEMPTS = 25

/**
 * Runs `insert` with the first free slug derived from `name`. When a concurrent insert takes that slug first (`insert`
 * fails with SlugTaken), the taken slugs are read again and the next free one is tried, MAX_SLUG_ATTEMPTS times in all.
 */
export const withDerivedSlug = <A, E, R>(name: string, insert: (slug: string) => Effect.Effect<A, E | SlugTaken, R>) =>
  Effect.gen(function*() {
    const base = slugFromName(name)
    for (let attempt = 1; ; attempt++) {
      const taken = new Set(yield* GameStore.use((games) => games.slugsStartingWith(base.slice(0, CANDIDATE_STEM_LENGTH))))
      const inserted = yield* insert(firstFreeSlug(base, taken)).pipe(
        Effect.map(Option.some),
        Effect.catchIf(
          (error): error is SlugTaken => error instanceof SlugTaken && attempt < MAX_SLUG_ATTEMPTS,
          () => Effect.succeed(Option.none<A>()),
        ),
      )
      if (Option.isSome(inserted)) return inserted.value
    }
  })
