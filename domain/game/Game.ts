import { Schema } from "effect"

/** Identifiers the service generates; anything else in a path is answered 404. */
export const GAME_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/u
export const GameId = Schema.String.pipe(Schema.check(Schema.isPattern(GAME_ID_PATTERN)))

/** `engine` games publish through the release API; other kinds (e.g. `web`) have their own flow. */
export const GameKind = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[a-z][a-z0-9-]{0,31}$/u, { expected: "a lowercase kind such as 'engine' or 'web'" })),
)

/**
 * Why the active release is the active one: `approval` (activated when approved), `activation` (someone made it active:
 * a go-live or a rollback), `takedown_fallback` (the release active before it was taken down) or `game_reinstate` (a
 * game-wide reinstate restored it); who did it and when.
 */
export const ActiveCause = Schema.Literals(["approval", "activation", "takedown_fallback", "game_reinstate"])
export type ActiveCause = typeof ActiveCause.Type
export const ActiveReason = Schema.Struct({ cause: ActiveCause, actor: Schema.String, at: Schema.Date })
export type ActiveReason = typeof ActiveReason.Type

export const Game = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  kind: Schema.String,
  ownerId: Schema.String,
  /** `manifest.id` of multipart submissions; null for games created through the release API. */
  manifestId: Schema.NullOr(Schema.String),
  createdAt: Schema.Date,
  updatedAt: Schema.Date,
  /** The active release's version (the game's pointer); absent or null while it has none. */
  activeVersion: Schema.optionalKey(Schema.NullOr(Schema.String)),
  /** When the game first got an active release; absent or null before. */
  firstPublishedAt: Schema.optionalKey(Schema.NullOr(Schema.Date)),
  /** Why the active release is active (recorded with each pointer move since migration 0011); null without one. */
  activeReason: Schema.optionalKey(Schema.NullOr(ActiveReason)),
})
export type Game = typeof Game.Type

/** The spec's three, and `taken_down`: nothing active or pending after an administrator took releases down. */
export type CatalogStatus = "review" | "published" | "rejected" | "taken_down"
