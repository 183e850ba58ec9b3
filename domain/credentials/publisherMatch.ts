import type { PublisherProvider, TrustedPublisher } from "./TrustedPublisher.ts"

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

const withoutRef = (value: string): string => {
  const at = value.lastIndexOf("@")
  return at < 0 ? value : value.slice(0, at)
}

/** The first claim that differs from the publisher's registration, or null when all match. */
export const mismatchedClaim = (ci: CiClaims, publisher: TrustedPublisher): string | null => {
  const repository = repositoryOf(ci)
  if (ci.provider !== publisher.provider || repository.value !== publisher.repository) return repository.claim
  if (ci.provider === "github") {
    // job_workflow_ref names the workflow that runs the job (a reusable one when called); workflow_ref the caller.
    const expected = `${publisher.repository}/${publisher.workflow}`
    const refs = ["job_workflow_ref", "workflow_ref"].map((name) => text(ci.claims, name))
    if (!refs.some((value) => value !== null && withoutRef(value) === expected)) return "job_workflow_ref"
  } else {
    // ci_config_ref_uri: <host>/<project path>//<config path>@<ref>. The whole path must be the registered one: a
    // pipeline may run a configuration kept in another project, and a suffix would accept one whose path ends alike.
    const uri = text(ci.claims, "ci_config_ref_uri")
    const location = uri === null ? null : withoutRef(uri)
    const path = location === null ? null : location.slice(location.indexOf("/") + 1)
    if (path !== `${publisher.repository}//${publisher.workflow}`) return "ci_config_ref_uri"
  }
  if (publisher.environment !== null && text(ci.claims, "environment") !== publisher.environment) return "environment"
  if (publisher.ref !== null && text(ci.claims, "ref") !== publisher.ref && text(ci.claims, "ref_path") !== publisher.ref) return "ref"
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
  const order = [repositoryOf(ci).claim, "job_workflow_ref", "ci_config_ref_uri", "environment", "ref"]
  const matched: Array<TrustedPublisher> = []
  let closest = repositoryOf(ci).claim
  for (const publisher of candidates) {
    const claim = mismatchedClaim(ci, publisher)
    if (claim === null) matched.push(publisher)
    else if (order.indexOf(claim) > order.indexOf(closest)) closest = claim
  }
  return matched.length > 0 ? { _tag: "Matched", publishers: matched } : { _tag: "NoMatch", claim: closest }
}
