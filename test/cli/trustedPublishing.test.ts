// The CLI under GitHub Actions' environment, against the real server and the local CI issuer double: it releases a
// pack with no stored secret, running exactly the command action.yml runs; with the wrong repository it is refused.
// Also: GitLab's PCKGATE_ID_TOKEN, and a fresh exchange when the service answers 401 mid-command.
import { randomBytes } from "node:crypto"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { apiClient } from "../support/api.ts"
import { type CiIssuerDouble, githubClaims, gitlabClaims, startCiIssuer } from "../support/ciIssuer.ts"
import { runCli } from "../support/cli.ts"
import { REPO_ROOT, type RunningServer, startServer } from "../support/server.ts"
import { parseYamlSubset } from "../support/yamlSubset.ts"
import { startFakeService, TIMESTAMP } from "./support/fakeService.ts"

const dir = mkdtempSync(join(tmpdir(), "pckgate-tp-"))
const aPack = (name: string) => {
  const path = join(dir, name)
  writeFileSync(path, randomBytes(8192))
  return path
}

type Step = { name?: string; uses?: string; run?: string; env?: Record<string, string>; with?: Record<string, string> }
const action = parseYamlSubset(readFileSync(join(REPO_ROOT, "action.yml"), "utf8")) as { runs: { using: string; steps: Array<Step> }; inputs: Record<string, unknown> }
const releaseStep = action.runs.steps.find((step) => step.run?.includes(" release ") === true)!

/** The words of the action's release command after the CLI's entry point, with the action's inputs filled in. */
const actionCommand = (inputs: Record<string, string>): Array<string> => {
  const words = [...releaseStep.run!.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!)
  const entry = words.findIndex((word) => word.endsWith("apps/cli/main.ts"))
  return words.slice(entry + 1).map((word) => word.replace(/\$\{\{ inputs\.([a-z-]+) \}\}/g, (_, name: string) => inputs[name]!))
}

describe("action.yml", () => {
  test("a composite action: sets up Node 24, then runs the CLI's release --game with trusted publishing and no token", () => {
    expect(action.runs.using).toBe("composite")
    expect(action.runs.steps[0]).toMatchObject({ uses: "actions/setup-node@v4", with: { "node-version": "24" } })
    expect(actionCommand({ file: "F", game: "G", version: "V" })).toEqual(["release", "F", "--game", "G", "--version", "V"])
    expect(releaseStep.env).toEqual({ PCKGATE_URL: "${{ inputs.url }}", PCKGATE_AUDIENCE: "${{ inputs.audience }}", INIT_CWD: "${{ github.workspace }}" })
    expect(JSON.stringify(action)).not.toMatch(/PCKGATE_TOKEN|secrets\./)
    expect(Object.keys(action.inputs)).toEqual(["url", "game", "file", "version", "audience"])
  })
})

describe("trusted publishing from the CLI against the real server", () => {
  let issuer: CiIssuerDouble
  let server: RunningServer
  let owner: string
  let gameId: string
  beforeAll(async () => {
    issuer = await startCiIssuer()
    server = await startServer({
      env: { RATE_LIMIT_COUNT: "100", TRUSTED_PUBLISHING_GITHUB_ISSUER: issuer.githubIssuer, TRUSTED_PUBLISHING_GITLAB_ISSUER: issuer.gitlabIssuer },
    })
    owner = server.token("ci-owner")
    const api = apiClient(server.baseUrl)
    gameId = (await api.createGame(owner, { name: "Space Game" })).body.gameId
    const publisher = { provider: "github", repository: "octo-org/space-game", workflow: ".github/workflows/release.yml", environment: "production", ref: "refs/heads/main" }
    expect((await api.call("POST", `/api/games/${gameId}/trusted-publishers`, { token: owner, body: publisher })).status).toBe(201)
    const gitlab = { provider: "gitlab", repository: "games/dungeon", workflow: ".gitlab-ci.yml" }
    expect((await api.call("POST", `/api/games/${gameId}/trusted-publishers`, { token: owner, body: gitlab })).status).toBe(201)
  })
  afterAll(async () => {
    await server?.stop()
    await issuer?.close()
  })

  const releases = async () => (await apiClient(server.baseUrl).call("GET", `/api/games/${gameId}`, { token: owner })).body.releases.map((r: { version: string }) => r.version)

  test("under GitHub Actions' variables the action's command releases the pack with no stored secret", async () => {
    const file = aPack("actions.pck")
    const run = await runCli([...actionCommand({ file, game: gameId, version: "1.0.0" }), "--skip-check"], {
      PCKGATE_URL: server.baseUrl,
      PCKGATE_AUDIENCE: "pckgate",
      GITHUB_ACTIONS: "true",
      ...issuer.actionsEnv,
    })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`released ${gameId} 1.0.0`)
    expect(issuer.actionsRequests.at(-1)).toEqual({ audience: "pckgate", authorization: `Bearer ${issuer.actionsEnv.ACTIONS_ID_TOKEN_REQUEST_TOKEN}` })
    expect(await releases()).toContain("1.0.0")
  })

  test("the same run from another repository is refused: exit 2, the claim named, nothing released", async () => {
    issuer.setActionsClaims(githubClaims({ repository: "evil/fork" }))
    try {
      const run = await runCli([...actionCommand({ file: aPack("fork.pck"), game: gameId, version: "6.6.6" }), "--skip-check"], {
        PCKGATE_URL: server.baseUrl,
        ...issuer.actionsEnv,
      })
      expect(run.code).toBe(2)
      expect(run.stderr).toContain("error: sign_in_required")
      expect(run.stderr).toContain("'repository'")
      expect(await releases()).not.toContain("6.6.6")
    } finally {
      issuer.setActionsClaims(githubClaims())
    }
  })

  test("GitLab CI: the ID token in PCKGATE_ID_TOKEN is exchanged the same way", async () => {
    const run = await runCli(["release", aPack("gitlab.pck"), "--game", gameId, "--version", "2.0.0", "--skip-check"], {
      PCKGATE_URL: server.baseUrl,
      PCKGATE_ID_TOKEN: await issuer.gitlab(gitlabClaims()),
    })
    expect(run.code, run.stderr).toBe(0)
    expect(await releases()).toContain("2.0.0")
  })
})

test("a 401 mid-command exchanges the CI's ID token again and retries", async () => {
  let exchanges = 0
  const fake = await startFakeService({
    "POST /api/auth/trusted-publishing/token": () => ({
      status: 200,
      body: { token: `minted-${++exchanges}`, expiresAt: TIMESTAMP, gameId: "gm_1", scopes: ["release"] },
    }),
    "GET /api/me/games": () =>
      exchanges < 2
        ? { status: 401, body: { error: "sign_in_required", detail: "The publishing token expired" } }
        : { status: 200, body: { games: [], nextCursor: null } },
  })
  try {
    const run = await runCli(["status", "--json"], { PCKGATE_URL: fake.url, PCKGATE_ID_TOKEN: "an-id-token" })
    expect(run.code, run.stderr).toBe(0)
    expect(exchanges).toBe(2)
  } finally {
    await fake.stop()
  }
})
