import { type PublisherProvider, repositoryKey, type TrustedPublisher } from "./TrustedPublisher.ts"

// Which registered publisher a verified CI ID token stands for. Pure: the token was verified (signature, issuer,
// audience, times) by the CiIdentity adapter; this compares its claims with what the owner registered.

export interface CiClaims {
  readonly provider: PublisherProvider
  readonly claims: Readonly<Record<string, unknown>>
}

const text = (claims: CiClaims["claims"], name: string): string | null => {
  const value = claims[name]
  return typeof value === "string" ? value : null
}

/** The repository the token names: GitHub `repository`, GitLab `project_path`. */
export const repositoryOf = (ci: CiClaims): { readonly claim: string; readonly value: string | null } =>
  ci.provider === "github" ? { claim: "repository", value: text(ci.claims, "repository") } : { claim: "project_path", value: text(ci.claims, "project_path") }

/** The claims that carry the numeric ids a publisher is pinned to (TrustedPublisher.repositoryId, repositoryOwnerId). */
export const ID_CLAIMS = {
  github: { repositoryId: "repository_id", repositoryOwnerId: "repository_owner_id" },
  gitlab: { repositoryId: "project_id", repositoryOwnerId: "namespace_id" },
} as const satisfies Record<PublisherProvider, Record<"repositoryId" | "repositoryOwnerId", string>>

export interface PublisherIds {
  readonly repositoryId: string
  readonly repositoryOwnerId: string
}

/** An id claim as decimal text (the providers send text; a number is read alike), or null when absent or malformed. */
export const idClaim = (ci: CiClaims, name: string): string | null => {
  const value = ci.claims[name]
  if (typeof value === "number") return Number.isSafeInteger(value) && value > 0 ? String(value) : null
  return typeof value === "string" && /^[1-9][0-9]{0,19}$/u.test(value) ? value : null
}

/** The token's repository and owner ids, each null when it carries none. */
export const idsOf = (ci: CiClaims): { readonly repositoryId: string | null; readonly repositoryOwnerId: string | null } => ({
  repositoryId: idClaim(ci, ID_CLAIMS[ci.provider].repositoryId),
  repositoryOwnerId: idClaim(ci, ID_CLAIMS[ci.provider].repositoryOwnerId),
})

/** True for the claims of the pinned ids: a mismatch there means another repository now has the registered name. */
export const isIdClaim = (claim: string): boolean =>
  Object.values(ID_CLAIMS).some((names) => claim === names.repositoryId || claim === names.repositoryOwnerId)

const withoutRef = (value: string): string => {
  const at = value.lastIndexOf("@")
  return at < 0 ? value : value.slice(0, at)
}

/** `<repository><separator><path>` naming the publisher's: the repository in any case, the path exactly. */
const namesWorkflow = (location: string | null, publisher: TrustedPublisher, separator: string): boolean => {
  if (location === null) return false
  const repository = location.slice(0, publisher.repository.length)
  return repositoryKey(repository) === repositoryKey(publisher.repository) &&
    location.slice(publisher.repository.length) === `${separator}${publisher.workflow}`
}

/** The first claim that differs from the publisher's registration, or null when all match. */
export const mismatchedClaim = (ci: CiClaims, publisher: TrustedPublisher): string | null => {
  const repository = repositoryOf(ci)
  if (ci.provider !== publisher.provider || repository.value === null || repositoryKey(repository.value) !== repositoryKey(publisher.repository)) {
    return repository.claim
  }
  if (ci.provider === "github") {
    // job_workflow_ref names the workflow that runs the job (a reusable one when called); workflow_ref the caller.
    const refs = ["job_workflow_ref", "workflow_ref"].map((name) => text(ci.claims, name))
    if (!refs.some((value) => value !== null && namesWorkflow(withoutRef(value), publisher, "/"))) return "job_workflow_ref"
  } else {
    // ci_config_ref_uri: <host>/<project path>//<config path>@<ref>. The whole path must be the registered one: a
    // pipeline may run a configuration kept in another project, and a suffix would accept one whose path ends alike.
    const uri = text(ci.claims, "ci_config_ref_uri")
    const location = uri === null ? null : withoutRef(uri)
    if (!namesWorkflow(location === null ? null : location.slice(location.indexOf("/") + 1), publisher, "//")) return "ci_config_ref_uri"
  }
  if (publisher.environment !== null && text(ci.claims, "environment") !== publisher.environment) return "environment"
  if (publisher.ref !== null && text(ci.claims, "ref") !== publisher.ref && text(ci.claims, "ref_path") !== publisher.ref) return "ref"
  // The ids: required (every GitHub and GitLab ID token carries them, and the first exchange pins them), and equal to
  // the pinned ones once pinned.
  const ids = idsOf(ci)
  for (const field of ["repositoryId", "repositoryOwnerId"] as const) {
    if (ids[field] === null || (publisher[field] !== null && publisher[field] !== ids[field])) return ID_CLAIMS[ci.provider][field]
  }
  return null
}

export type PublisherMatch =
  | { readonly _tag: "Matched"; readonly publishers: ReadonlyArray<TrustedPublisher> }
  | { readonly _tag: "NoMatch"; readonly claim: string }

/**
 * The publishers among `candidates` (those registered for the token's repository) whose every claim matches. With
 * none, the claim that stopped the closest candidate: the one that got furthest through the checks.
 */
export const matchPublishers = (ci: CiClaims, candidates: ReadonlyArray<TrustedPublisher>): PublisherMatch => {
  const ids = ID_CLAIMS[ci.provider]
  const order = [repositoryOf(ci).claim, "job_workflow_ref", "ci_config_ref_uri", "environment", "ref", ids.repositoryId, ids.repositoryOwnerId]
  const matched: Array<TrustedPublisher> = []
  let closest = repositoryOf(ci).claim
  for (const publisher of candidates) {
    const claim = mismatchedClaim(ci, publisher)
    if (claim === null) matched.push(publisher)
    else if (order.indexOf(claim) > order.indexOf(closest)) closest = claim
  }
  return matched.length > 0 ? { _tag: "Matched", publishers: matched } : { _tag: "NoMatch", claim: closest }
}
