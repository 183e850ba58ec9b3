import { Schema } from "effect"
import { withoutForbiddenCharacters } from "../text/UserText.ts"

export const SLUG_MAX_LENGTH = 64
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/u

/** The pattern refuses every other character too; the first check names a control or bidirectional one by code point. */
export const Slug = Schema.String.pipe(
  Schema.check(
    withoutForbiddenCharacters("single"),
    Schema.isPattern(SLUG_PATTERN, { expected: "lowercase letters and digits in groups joined by single hyphens" }),
    Schema.isMaxLength(SLUG_MAX_LENGTH),
  ),
)
export type Slug = typeof Slug.Type

/** The path of /api/games/by-slug/{slug} and the game page /games/{slug}: anything but a slug names no game. */
export const SlugPath = Schema.Struct({ slug: Slug }).pipe(Schema.brand("SlugPath"))
export type SlugPath = typeof SlugPath.Type

/** Derives a slug from a game name: Unicode-normalised, marks stripped, lowercased, `game` when nothing is left. */
export const slugFromName = (name: string): string => {
  const ascii = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
  const joined = ascii.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")
  const trimmed = joined.slice(0, SLUG_MAX_LENGTH).replace(/-+$/g, "")
  return trimmed.length > 0 ? trimmed : "game"
}

/** The n-th candidate for a derived slug (n = 1 is the base), always within the length limit. */
export const slugCandidate = (base: string, n: number): string => {
  if (n <= 1) return base
  const suffix = `-${n}`
  return `${base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/g, "")}${suffix}`
}

/** The first candidate not in `taken`. */
export const firstFreeSlug = (base: string, taken: ReadonlySet<string>): string => {
  for (let n = 1; ; n++) {
    const candidate = slugCandidate(base, n)
    if (!taken.has(candidate)) return candidate
  }
}
