// Trusted publishing over HTTP: the owner registers CI workflows, a CI's ID token from the local issuer double is
// exchanged for a 15-minute token that releases that one game, and everything else is refused. The repository's ids
// are pinned at first use, names match in any case, and the per-game limit holds under concurrent registrations (on
// the memory stores here; on SQLite, MariaDB and the real server in test/e2e/credentialRaces.test.ts).
import { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { ciIssuer, layerJoseCiIdentity } from "../../adapters/identity/JoseCiIdentity.ts"
import { layerMemoryRecords } from "../../adapters/memory/MemoryRecords.ts"
import { artifact } from "../support/api.ts"
import { type CiIssuerDouble, githubClaims, gitlabClaims, startCiIssuer } from "../support/ciIssuer.ts"
import * as races from "../support/credentialRaces.ts"
import { githubRepo, makePinBarrier, RE_REGISTER, withPinBarrier } from "../support/credentialRaces.ts"
import { makeTestApp, newGame, type TestApp } from "../support/testApp.ts"

let issuer: CiIssuerDouble
let t: TestApp

beforeAll(async () => {
  issuer = await startCiIssuer()
  t = await makeTestApp({
    override: layerJoseCiIdentity({ issuers: [ciIssuer("github", issuer.githubIssuer), ciIssuer("gitlab", issuer.gitlabIssuer)], audience: "pckgate" }),
  })
})
afterAll(async () => {
  await t.dispose()
  await issuer.close()
})

const GITHUB_PUBLISHER = { provider: "github", repository: "octo-org/space-game", workflow: "release.yml", environment: "production", ref: "refs/heads/main" }

const register = (token: string, gameId: string, body: object) => races.registerPublisher(t.api, token, gameId, body)
const exchange = (idToken: string, gameId?: string) => races.exchangeIdToken(t.api, idToken, gameId)
const publishersOf = (token: string, gameId: string) => races.publishersOf(t.api, token, gameId)

describe("registering trusted publishers", () => {
  test("the owner adds, lists and removes them; others (and keys) get 404; administrators may manage them", async () => {
    const token = await t.token("tp-owner")
    const gameId = await newGame(t, token)
    const added = await t.api.call("POST", `/api/games/${gameId}/trusted-publishers`, { token, body: { ...GITHUB_PUBLISHER, repository: "someone/else" } })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ gameId, provider: "github", repository: "someone/else", workflow: ".github/workflows/release.yml", environment: "production", ref: "refs/heads/main", createdBy: "tp-owner" })
    const gitlab = await register(token, gameId, { provider: "gitlab", repository: "group/sub/project", workflow: ".gitlab-ci.yml" })
    const listed = await t.api.call("GET", `/api/games/${gameId}/trusted-publishers`, { token })
    expect(listed.body.publishers.map((p: { id: string }) => p.id)).toEqual([added.body.id, gitlab.id])
    expect(listed.body.publishers[1]).toMatchObject({ environment: null, ref: null, repositoryId: null, repositoryOwnerId: null })

    const stranger = await t.token("tp-stranger")
    for (const [method, path] of [["GET", ""], ["POST", ""], ["DELETE", `/${gitlab.id}`]] as const) {
      const refused = await t.api.call(method, `/api/games/${gameId}/trusted-publishers${path}`, { token: stranger, body: method === "POST" ? GITHUB_PUBLISHER : undefined })
      expect([method, refused.status, refused.body.error]).toEqual([method, 404, "game_not_found_or_forbidden"])
    }
    const key = (await t.api.call("POST", "/api/me/api-keys", { token, body: { name: "k", games: "all", scopes: ["release", "read"] } })).body.key
    const byKey = await t.api.call("POST", `/api/games/${gameId}/trusted-publishers`, { token: key, body: GITHUB_PUBLISHER })
    expect([byKey.status, byKey.body.error]).toEqual([404, "not_found"])
    const admin = await t.token("tp-admin", { admin: true })
    expect((await t.api.call("GET", `/api/games/${gameId}/trusted-publishers`, { token: admin })).body.publishers).toHaveLength(2)

    expect((await t.api.call("DELETE", `/api/games/${gameId}/trusted-publishers/${gitlab.id}`, { token })).status).toBe(204)
    const again = await t.api.call("DELETE", `/api/games/${gameId}/trusted-publishers/${gitlab.id}`, { token })
    expect([again.status, again.body.error]).toEqual([404, "not_found"])
    for (
      const bad of [
        { ...GITHUB_PUBLISHER, provider: "bitbucket" },
        { ...GITHUB_PUBLISHER, repository: "no-slash" },
        { ...GITHUB_PUBLISHER, workflow: "release.txt" },
        ...["0", "012", "12a", " 12", 0, -5, 1.5, 2 ** 53].map((repositoryId) => ({ ...GITHUB_PUBLISHER, repositoryId })),
        { ...GITHUB_PUBLISHER, repositoryOwnerId: "" },
      ]
    ) {
      expect((await t.api.call("POST", `/api/games/${gameId}/trusted-publishers`, { token, body: bad })).status).toBe(400)
    }
  })
})

describe("exchanging a CI's ID token", () => {
  let owner: string
  let gameId: string
  let otherGame: string
  beforeAll(async () => {
    owner = await t.token("space-owner", { admin: true })
    gameId = await newGame(t, owner, "Space Game")
    otherGame = await newGame(t, owner, "Other Game")
    await register(owner, gameId, GITHUB_PUBLISHER)
  })

  test("a matching GitHub token gets a 15-minute token that releases that game as its owner, and reads it", async () => {
    const now = t.clock.current().getTime()
    const minted = await exchange(await issuer.github())
    expect(minted.status).toBe(200)
    expect(minted.body).toMatchObject({ gameId, scopes: ["release"] })
    expect(Date.parse(minted.body.expiresAt) - now).toBe(15 * 60_000)
    const pck = artifact()
    const finalized = await t.api.uploadRelease(minted.body.token, gameId, pck)
    expect(finalized.status).toBe(201)
    expect((await t.api.downloadUrl(minted.body.token, gameId, "1.0.0")).status).toBe(200)
    expect((await t.api.call("GET", `/api/games/${gameId}/releases/1.0.0/scan`, { token: minted.body.token })).status).toBe(200)
    const mine = await t.api.call("GET", "/api/me/games", { token: minted.body.token })
    expect(mine.body.games.map((g: { gameId: string; ownerId: string }) => [g.gameId, g.ownerId])).toEqual([[gameId, "space-owner"]])
    const game = await t.api.call("GET", `/api/games/${gameId}`, { token: minted.body.token })
    expect(game.body.releases.map((r: { version: string }) => r.version)).toEqual(["1.0.0"])
  })

  test("the minted token is refused on another game, on administrator endpoints, and everywhere outside release", async () => {
    const { token } = (await exchange(await issuer.github())).body
    const pck = artifact(4096, "2.0.0")
    const other = await t.api.uploadUrl(token, otherGame, pck.declaration)
    expect([other.status, other.body.error]).toEqual([404, "game_not_found_or_forbidden"])
    for (const [method, path] of [
      ["GET", "/api/admin/review-queue"],
      ["POST", `/api/admin/games/${gameId}/releases/1.0.0/approve`],
      ["POST", "/api/games/engine"],
      ["GET", "/api/me/api-keys"],
      ["GET", `/api/games/${gameId}/trusted-publishers`],
      ["POST", "/api/session"],
      ["POST", "/submit-api/games/submit"],
    ] as const) {
      const refused = await t.api.call(method, path, { token, body: method === "POST" ? {} : undefined })
      expect([path, refused.status, refused.body.error]).toEqual([path, 404, "not_found"])
    }
  })

  test("no match: 401 sign_in_required naming the claim that differs, never the token", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ repository: "octo-org/other-game" }, "repository"],
      [{ job_workflow_ref: "octo-org/space-game/.github/workflows/nightly.yml@refs/heads/main", workflow_ref: "octo-org/space-game/.github/workflows/nightly.yml@refs/heads/main" }, "job_workflow_ref"],
      [{ environment: "staging" }, "environment"],
      [{ ref: "refs/heads/feature" }, "ref"],
    ]
    for (const [change, claim] of cases) {
      const idToken = await issuer.github(githubClaims(change))
      const refused = await exchange(idToken)
      expect([claim, refused.status, refused.body.error]).toEqual([claim, 401, "sign_in_required"])
      expect(refused.body.detail).toContain(`'${claim}'`)
      expect(refused.body.detail).not.toContain(idToken.split(".")[1]!.slice(0, 20))
    }
  })

  test("expired, not yet valid, wrong audience, foreign-signed and unregistered-issuer tokens are refused (401)", async () => {
    const cases: Array<[Promise<string>, string]> = [
      [issuer.github(githubClaims(), { expiresAt: "-1m" }), "expired"],
      [issuer.github(githubClaims(), { notBefore: "10m" }), "nbf"],
      [issuer.github(githubClaims(), { audience: "https://github.com/octo-org" }), "audience 'pckgate'"],
      [issuer.github(githubClaims(), { foreignKey: true }), "signature"],
      [issuer.elsewhere(), "not accepted"],
    ]
    for (const [idToken, words] of cases) {
      const refused = await exchange(await idToken)
      expect([words, refused.status, refused.body.error]).toEqual([words, 401, "sign_in_required"])
      expect(refused.body.detail).toContain(words)
    }
    const garbage = await exchange("not-a-jwt")
    expect([garbage.status, garbage.body.error]).toEqual([401, "sign_in_required"])
  })

  test("GitLab: project_path, ci_config_ref_uri and ref (or ref_path) are matched", async () => {
    const gitlabGame = await newGame(t, owner, "Dungeon")
    await register(owner, gitlabGame, { provider: "gitlab", repository: "games/dungeon", workflow: ".gitlab-ci.yml", ref: "refs/heads/main", environment: "production" })
    const minted = await exchange(await issuer.gitlab())
    expect([minted.status, minted.body.gameId]).toEqual([200, gitlabGame])
    const refused = await exchange(await issuer.gitlab(gitlabClaims({ ci_config_ref_uri: "gitlab.example.com/games/dungeon//ci/other.yml@refs/heads/main" })))
    expect([refused.status, refused.body.detail.includes("'ci_config_ref_uri'")]).toEqual([401, true])
    const tag = await exchange(await issuer.gitlab(gitlabClaims({ ref: "v1", ref_path: "refs/tags/v1" })))
    expect([tag.status, tag.body.detail.includes("'ref'")]).toEqual([401, true])
  })

  test("a workflow trusted by several games needs gameId (409 ambiguous_publisher); a removed publisher is refused", async () => {
    const owner2 = await t.token("multi-owner")
    const [a, b] = [await newGame(t, owner2, "A"), await newGame(t, owner2, "B")]
    const claims = githubClaims({ repository: "multi/repo", job_workflow_ref: "multi/repo/.github/workflows/release.yml@refs/heads/main", environment: undefined })
    const publisherA = await register(owner2, a, { provider: "github", repository: "multi/repo", workflow: ".github/workflows/release.yml" })
    await register(owner2, b, { provider: "github", repository: "multi/repo", workflow: ".github/workflows/release.yml" })
    const ambiguous = await exchange(await issuer.github(claims))
    expect([ambiguous.status, ambiguous.body.error]).toEqual([409, "ambiguous_publisher"])
    expect(ambiguous.body.detail).toContain(a)
    const chosen = await exchange(await issuer.github(claims), b)
    expect([chosen.status, chosen.body.gameId]).toEqual([200, b])
    expect((await t.api.call("DELETE", `/api/games/${a}/trusted-publishers/${publisherA.id}`, { token: owner2 })).status).toBe(204)
    const removed = await exchange(await issuer.github(claims), a)
    expect([removed.status, removed.body.error]).toEqual([401, "sign_in_required"])
    expect((await exchange(await issuer.github(claims))).body.gameId).toBe(b)
  })
})

describe("pinning the repository's ids against re-created repositories", () => {
  let owner: string
  beforeAll(async () => {
    owner = await t.token("pin-owner")
  })

  test("the first exchange pins the token's ids; later ones with another repository_id or repository_owner_id are refused", async () => {
    const gameId = await newGame(t, owner, "Pinned")
    const repo = githubRepo("pin-org/pinned-game")
    await register(owner, gameId, repo.publisher)
    expect(await publishersOf(owner, gameId)).toMatchObject([{ repositoryId: null, repositoryOwnerId: null }])
    const first = await exchange(await issuer.github(repo.claims({ repository_id: "5001", repository_owner_id: "6001" })))
    expect([first.status, first.body.gameId]).toEqual([200, gameId])
    expect(await publishersOf(owner, gameId)).toMatchObject([{ repositoryId: "5001", repositoryOwnerId: "6001" }])

    for (const [change, claim] of [[{ repository_id: "5002" }, "repository_id"], [{ repository_owner_id: "6002" }, "repository_owner_id"]] as const) {
      const refused = await exchange(await issuer.github(repo.claims({ repository_id: "5001", repository_owner_id: "6001", ...change })))
      expect([claim, refused.status, refused.body.error]).toEqual([claim, 401, "sign_in_required"])
      expect(refused.body.detail).toContain(`'${claim}'`)
      expect(refused.body.detail).toContain("deleted and re-created")
      expect(refused.body.detail).toContain(RE_REGISTER)
    }
    const missing = await exchange(await issuer.github(repo.claims({ repository_id: undefined, repository_owner_id: "6001" })))
    expect([missing.status, missing.body.detail]).toEqual([401, expect.stringContaining("The ID token has no 'repository_id' claim that is a numeric id")])
    const again = await exchange(await issuer.github(repo.claims({ repository_id: "5001", repository_owner_id: "6001" })))
    expect([again.status, again.body.gameId]).toEqual([200, gameId])
    expect(await publishersOf(owner, gameId)).toMatchObject([{ repositoryId: "5001", repositoryOwnerId: "6001" }])
  })

  test("ids given at registration (a number or its text) are pinned from the start; removing and registering again re-pins", async () => {
    const gameId = await newGame(t, owner, "Pinned Up Front")
    const repo = githubRepo("pin-org/careful-game")
    const added = await t.api.call("POST", `/api/games/${gameId}/trusted-publishers`, { token: owner, body: { ...repo.publisher, repositoryId: 7001, repositoryOwnerId: "8001" } })
    expect([added.status, added.body.repositoryId, added.body.repositoryOwnerId]).toEqual([201, "7001", "8001"])
    const impostor = await exchange(await issuer.github(repo.claims({ repository_id: "7002", repository_owner_id: "8001" })))
    expect([impostor.status, impostor.body.detail]).toEqual([401, expect.stringContaining("'repository_id'")])
    expect((await exchange(await issuer.github(repo.claims({ repository_id: "7001", repository_owner_id: "8001" })))).status).toBe(200)

    // The repository was legitimately re-created: the owner removes the publisher and registers it again.
    expect((await t.api.call("DELETE", `/api/games/${gameId}/trusted-publishers/${added.body.id}`, { token: owner })).status).toBe(204)
    await register(owner, gameId, repo.publisher)
    expect((await exchange(await issuer.github(repo.claims({ repository_id: "7002", repository_owner_id: "8001" })))).status).toBe(200)
    expect(await publishersOf(owner, gameId)).toMatchObject([{ repositoryId: "7002", repositoryOwnerId: "8001" }])
  })

  test("GitLab: project_id and namespace_id are pinned alike", async () => {
    const gameId = await newGame(t, owner, "Pinned Dungeon")
    const claims = (over: Record<string, unknown>) =>
      gitlabClaims({ project_path: "pin-group/dungeon", ci_config_ref_uri: "gitlab.example.com/pin-group/dungeon//.gitlab-ci.yml@refs/heads/main", ...over })
    await register(owner, gameId, { provider: "gitlab", repository: "pin-group/dungeon", workflow: ".gitlab-ci.yml" })
    expect((await exchange(await issuer.gitlab(claims({ project_id: "9001", namespace_id: "9101" })))).status).toBe(200)
    expect(await publishersOf(owner, gameId)).toMatchObject([{ repositoryId: "9001", repositoryOwnerId: "9101" }])
    for (const [change, claim] of [[{ project_id: "9002" }, "project_id"], [{ namespace_id: "9102" }, "namespace_id"]] as const) {
      const refused = await exchange(await issuer.gitlab(claims({ project_id: "9001", namespace_id: "9101", ...change })))
      expect([claim, refused.status, refused.body.detail.includes(`'${claim}'`), refused.body.detail.includes(RE_REGISTER)]).toEqual([claim, 401, true, true])
    }
  })
})

describe("two first exchanges with different ids, held together at the pin", () => {
  let raced: TestApp
  const barrier = makePinBarrier()
  beforeAll(async () => {
    const identity = layerJoseCiIdentity({ issuers: [ciIssuer("github", issuer.githubIssuer)], audience: "pckgate" })
    raced = await makeTestApp({ override: Layer.merge(identity, withPinBarrier(layerMemoryRecords, barrier)) as Layer.Layer<never> })
  })
  afterAll(() => raced.dispose())

  test("exactly one pins its ids; the other is refused as a re-created repository would be", async () => {
    const owner = await raced.token("race-owner")
    await races.raceFirstExchanges(issuer, raced.api, { owner, gameId: await newGame(raced, owner, "Raced") }, "race-org", 3, barrier)
  })
})

describe("case: GitHub and GitLab names are case-insensitive, as the providers treat them", () => {
  test("the token's canonical case matches a registration in another case; the workflow file's path keeps its case", async () => {
    const owner = await t.token("case-owner")
    const [lower, mixed] = [await newGame(t, owner, "Lower"), await newGame(t, owner, "Mixed")]
    await register(owner, lower, githubRepo("case-org/lower-game").publisher)
    await register(owner, mixed, githubRepo("Case-Org/Mixed-Game").publisher)
    const canonical = githubRepo("Case-Org/Lower-Game")
    expect((await exchange(await issuer.github(canonical.claims()))).body.gameId).toBe(lower)
    expect((await exchange(await issuer.github(githubRepo("case-org/mixed-game").claims()))).body.gameId).toBe(mixed)
    const otherPath = await exchange(await issuer.github(canonical.claims({ job_workflow_ref: "Case-Org/Lower-Game/.github/workflows/Release.yml@refs/heads/main" })))
    expect([otherPath.status, otherPath.body.detail]).toEqual([401, expect.stringContaining("'job_workflow_ref'")])

    const dungeon = await newGame(t, owner, "Case Dungeon")
    await register(owner, dungeon, { provider: "gitlab", repository: "Case-Group/Dungeon", workflow: ".gitlab-ci.yml" })
    const gitlab = await exchange(await issuer.gitlab(gitlabClaims({ project_path: "case-group/dungeon", ci_config_ref_uri: "gitlab.com/case-group/dungeon//.gitlab-ci.yml@refs/heads/main" })))
    expect([gitlab.status, gitlab.body.gameId]).toEqual([200, dungeon])
  })
})

describe("limits hold under concurrent registrations", () => {
  test("25 registrations at once on one game: exactly 20 are added, the others answer 400", async () => {
    const owner = await t.token("busy-owner")
    await races.registerConcurrently(t.api, owner, await newGame(t, owner, "Busy"))
  })
})
