// Which registered publisher a verified CI ID token stands for: the claims compared with the registration.
import { describe, expect, test } from "vitest"
import { type CiClaims, matchPublishers, mismatchedClaim } from "../../domain/credentials/publisherMatch.ts"
import type { TrustedPublisher } from "../../domain/credentials/TrustedPublisher.ts"

const gitlabPublisher: TrustedPublisher = {
  id: "tp_1",
  gameId: "gm_1",
  provider: "gitlab",
  repository: "games/dungeon",
  workflow: ".gitlab-ci.yml",
  environment: null,
  ref: null,
  repositoryId: null,
  repositoryOwnerId: null,
  createdBy: "user:owner",
  createdAt: new Date(0),
}

const githubPublisher: TrustedPublisher = {
  ...gitlabPublisher,
  provider: "github",
  repository: "octo-org/space-game",
  workflow: ".github/workflows/release.yml",
}

const gitlab = (ci_config_ref_uri: string, over: Record<string, unknown> = {}): CiClaims => ({
  provider: "gitlab",
  claims: { project_path: "games/dungeon", ci_config_ref_uri, ref: "main", ref_path: "refs/heads/main", project_id: "42", namespace_id: "7", ...over },
})

const github = (over: Record<string, unknown> = {}): CiClaims => ({
  provider: "github",
  claims: {
    repository: "octo-org/space-game",
    job_workflow_ref: "octo-org/space-game/.github/workflows/release.yml@refs/heads/main",
    repository_id: "1001",
    repository_owner_id: "2002",
    ...over,
  },
})

describe("GitLab's ci_config_ref_uri", () => {
  test("the project's own configuration file matches, whatever the host and ref", () => {
    expect(mismatchedClaim(gitlab("gitlab.example.com/games/dungeon//.gitlab-ci.yml@refs/heads/main"), gitlabPublisher)).toBeNull()
    expect(mismatchedClaim(gitlab("gitlab.com/games/dungeon//.gitlab-ci.yml@refs/tags/1.0.0"), gitlabPublisher)).toBeNull()
  })

  test("a configuration kept in another project whose path merely ends alike is refused", () => {
    expect(mismatchedClaim(gitlab("gitlab.example.com/evil/games/dungeon//.gitlab-ci.yml@refs/heads/main"), gitlabPublisher)).toBe("ci_config_ref_uri")
    expect(mismatchedClaim(gitlab("gitlab.example.com/games/dungeon//ci/.gitlab-ci.yml@refs/heads/main"), gitlabPublisher)).toBe("ci_config_ref_uri")
    expect(mismatchedClaim(gitlab("games/dungeon//.gitlab-ci.yml"), gitlabPublisher)).toBe("ci_config_ref_uri")
  })
})

describe("case", () => {
  test("GitHub: the repository, in the claim and in job_workflow_ref, matches in any case; the workflow path does not", () => {
    const canonical = { repository: "Octo-Org/Space-Game", job_workflow_ref: "Octo-Org/Space-Game/.github/workflows/release.yml@refs/heads/main" }
    expect(mismatchedClaim(github(canonical), githubPublisher)).toBeNull()
    expect(mismatchedClaim(github(), { ...githubPublisher, repository: "OCTO-ORG/space-GAME" })).toBeNull()
    expect(mismatchedClaim(github({ ...canonical, job_workflow_ref: "Octo-Org/Space-Game/.github/workflows/Release.yml@refs/heads/main" }), githubPublisher))
      .toBe("job_workflow_ref")
  })

  test("GitLab: the project path, in the claim and in ci_config_ref_uri, matches in any case; the configuration path does not", () => {
    expect(mismatchedClaim(gitlab("gitlab.com/Games/Dungeon//.gitlab-ci.yml@refs/heads/main", { project_path: "Games/Dungeon" }), gitlabPublisher)).toBeNull()
    expect(mismatchedClaim(gitlab("gitlab.com/games/dungeon//.GitLab-ci.yml@refs/heads/main"), gitlabPublisher)).toBe("ci_config_ref_uri")
  })

  test("only ASCII letters fold: a Unicode case mapping that lands on ASCII does not match", () => {
    expect(mismatchedClaim(github({ repository: "octo-org/space-game".replace("o", "\u212A") }), { ...githubPublisher, repository: "kcto-org/space-game" }))
      .toBe("repository")
  })
})

describe("pinned ids", () => {
  test("unpinned: any ids match, but the token must carry both", () => {
    expect(mismatchedClaim(github(), githubPublisher)).toBeNull()
    expect(mismatchedClaim(github({ repository_id: undefined }), githubPublisher)).toBe("repository_id")
    expect(mismatchedClaim(github({ repository_owner_id: "" }), githubPublisher)).toBe("repository_owner_id")
    expect(mismatchedClaim(gitlab("gitlab.com/games/dungeon//.gitlab-ci.yml@x", { project_id: undefined }), gitlabPublisher)).toBe("project_id")
  })

  test("pinned: the token's ids must equal them (a number is read as its decimal text)", () => {
    const pinned = { ...githubPublisher, repositoryId: "1001", repositoryOwnerId: "2002" }
    expect(mismatchedClaim(github(), pinned)).toBeNull()
    expect(mismatchedClaim(github({ repository_id: 1001, repository_owner_id: 2002 }), pinned)).toBeNull()
    expect(mismatchedClaim(github({ repository_id: "1003" }), pinned)).toBe("repository_id")
    expect(mismatchedClaim(github({ repository_owner_id: "2003" }), pinned)).toBe("repository_owner_id")
    const gitlabPinned = { ...gitlabPublisher, repositoryId: "42", repositoryOwnerId: "7" }
    expect(mismatchedClaim(gitlab("gitlab.com/games/dungeon//.gitlab-ci.yml@x", { namespace_id: "8" }), gitlabPinned)).toBe("namespace_id")
  })

  test("a re-created repository matches no pinned publisher, and the id claim is the one named", () => {
    const pinned = { ...githubPublisher, repositoryId: "1001", repositoryOwnerId: "2002" }
    expect(matchPublishers(github({ repository_id: "9999" }), [pinned, { ...pinned, id: "tp_2", environment: "production" }]))
      .toEqual({ _tag: "NoMatch", claim: "repository_id" })
  })
})
