import { Schema } from "effect"
import { GameIdParam } from "../game/GamePath.ts"
import { IdentifierText } from "../text/UserText.ts"

// A trusted publisher: a CI workflow whose own OIDC ID token is exchanged for a 15-minute token that releases one game.

export const PUBLISHER_PROVIDERS = ["github", "gitlab"] as const
export type PublisherProvider = (typeof PUBLISHER_PROVIDERS)[number]

export interface TrustedPublisher {
  readonly id: string
  readonly gameId: string
  readonly provider: PublisherProvider
  /** GitHub `owner/repo`; GitLab the project path `group/subgroup/project`. */
  readonly repository: string
  /** GitHub: the workflow file's path (`.github/workflows/release.yml`); GitLab: the CI config path (`.gitlab-ci.yml`). */
  readonly workflow: string
  /** When set, the ID token's `environment` must equal it. */
  readonly environment: string | null
  /** When set, the ID token's `ref` (GitLab: `ref` or `ref_path`) must equal it, e.g. `refs/heads/main` or `refs/tags/v1`. */
  readonly ref: string | null
  /**
   * The provider's numeric id of the repository (GitHub `repository_id`, GitLab `project_id`) and of its owner (GitHub
   * `repository_owner_id`, GitLab `namespace_id`), as decimal text. Given at registration or pinned by the first
   * exchange (null until then); from then on only ID tokens carrying the same ids match, so a repository deleted and
   * re-created under the same name, or an account renamed and its name taken, cannot publish.
   */
  readonly repositoryId: string | null
  readonly repositoryOwnerId: string | null
  readonly createdBy: string
  readonly createdAt: Date
}

/** Publishers one game may have. */
export const MAX_PUBLISHERS_PER_GAME = 20

const Repository = IdentifierText.pipe(
  Schema.check(Schema.isPattern(/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/u, { message: "owner/repository (GitLab: group/project)" })),
)
const WorkflowPath = IdentifierText.pipe(
  Schema.check(Schema.isPattern(/^[^@\s]+\.ya?ml$/u, { message: "the workflow's path in the repository, ending in .yml or .yaml" })),
)

/** A provider's numeric id: a JSON number or its decimal text (the ID tokens carry text). */
const PlatformId = Schema.Union([
  Schema.String.pipe(Schema.check(Schema.isPattern(/^[1-9][0-9]{0,19}$/u, { message: "the provider's numeric id, e.g. \"123456789\"" }))),
  Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }))),
])

export const AddTrustedPublisherBody = Schema.Struct({
  provider: Schema.Literals(PUBLISHER_PROVIDERS),
  repository: Repository,
  workflow: WorkflowPath,
  environment: Schema.optionalKey(Schema.NullOr(IdentifierText)),
  ref: Schema.optionalKey(Schema.NullOr(IdentifierText)),
  /** GitHub: the repository's id (`repository_id`); GitLab: the project's (`project_id`). Pinned now instead of at first use. */
  repositoryId: Schema.optionalKey(Schema.NullOr(PlatformId)),
  /** GitHub: the owner account's id (`repository_owner_id`); GitLab: the namespace's (`namespace_id`). */
  repositoryOwnerId: Schema.optionalKey(Schema.NullOr(PlatformId)),
}).pipe(Schema.brand("AddTrustedPublisherBody"))
export type AddTrustedPublisherBody = typeof AddTrustedPublisherBody.Type

export const ExchangeBody = Schema.Struct({
  token: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(16384))),
  gameId: Schema.optionalKey(Schema.String),
}).pipe(Schema.brand("ExchangeBody"))
export type ExchangeBody = typeof ExchangeBody.Type

/**
 * The path of DELETE /api/games/{gameId}/trusted-publishers/{publisherId}. The publisher id is any text: an unknown one
 * (or one that cannot be decoded, read as "") is 404 once the game is known to be the caller's.
 */
export const PublisherPath = Schema.Struct({ gameId: GameIdParam, publisherId: Schema.String }).pipe(Schema.brand("PublisherPath"))
export type PublisherPath = typeof PublisherPath.Type

/** A registered id as stored: decimal text, or null when not given. */
export const platformIdText = (id: string | number | null | undefined): string | null => (id === undefined || id === null ? null : String(id))

/**
 * GitHub owner and repository names and GitLab group and project paths are case-insensitive (GitLab keeps them unique
 * regardless of case and finds them so); ID tokens carry their canonical case, which the owner may not have typed.
 * Both are ASCII, so only ASCII letters are folded: no Unicode case mapping can turn other text into a registered name.
 */
export const repositoryKey = (repository: string): string => repository.replace(/[A-Z]+/gu, (letters) => letters.toLowerCase())

/** A GitHub workflow given by its file name alone lives in `.github/workflows/`. */
export const normalizedWorkflow = (provider: PublisherProvider, workflow: string): string =>
  provider === "github" && !workflow.includes("/") ? `.github/workflows/${workflow}` : workflow
