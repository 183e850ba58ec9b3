// Which registered publisher a verified CI ID token stands for: the claims compared with the registration.
import { describe, expect, test } from "vitest"
import { mismatchedClaim } from "../../domain/credentials/publisherMatch.ts"
import type { TrustedPublisher } from "../../domain/credentials/TrustedPublisher.ts"

const gitlabPublisher: TrustedPublisher = {
  id: "tp_1",
  gameId: "gm_1",
  provider: "gitlab",
  repository: "games/dungeon",
  workflow: ".gitlab-ci.yml",
  environment: null,
  ref: null,
  createdBy: "user:owner",
  createdAt: new Date(0),
}

const gitlab = (ci_config_ref_uri: string) => ({
  provider: "gitlab" as const,
  claims: { project_path: "games/dungeon", ci_config_ref_uri, ref: "main", ref_path: "refs/heads/main" },
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
