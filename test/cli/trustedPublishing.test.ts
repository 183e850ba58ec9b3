// The CLI under GitHub Actions' environment, against the real server and the local CI issuer double: the release step
// of action.yml, run by bash as the runner runs it, releases a real Godot pack with no stored secret; with the wrong
// repository it is refused. Also: GitLab's PCKGATE_ID_TOKEN, and a fresh exchange when the service answers 401.
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { pack } from "../submit/fixtures.ts"
import { apiClient } from "../support/api.ts"
import { type CiIssuerDouble, githubClaims, gitlabClaims, startCiIssuer } from "../support/ciIssuer.ts"
import { NO_CI_ID_TOKEN, runCli } from "../support/cli.ts"
import { REPO_ROOT, type RunningServer, startServer } from "../support/server.ts"
import { parseYamlSubset } from "../support/yamlSubset.ts"
import { runProcess } from "./support/processes.ts"
import { startFakeService, TIMESTAMP } from "./support/fakeService.ts"

/** The job's workspace: a copy of a real Godot export (the CLI checks the pack before uploading it). */
const workspace = mkdtempSync(join(tmpdir(), "pckgate-tp-"))
const aPack = (name: string, fixture: "clean" | "clean-update" = "clean") => {
  const path = join(workspace, name)
  copyFileSync(pack(fixture).path, path)
  return path
}

type Step = { name?: string; uses?: string; run?: string; env?: Record<string, string>; with?: Record<string, string> }
type Input = { description: string; required?: string; default?: string }
const action = parseYamlSubset(readFileSync(join(REPO_ROOT, "action.yml"), "utf8")) as { runs: { using: string; steps: Array<Step> }; inputs: Record<string, Input> }
const releaseStep = action.runs.steps.find((step) => step.run?.includes(" release ") === true)!

/** The step's environment as the runner computes it: `${{ inputs.x }}` (or its default) and `${{ github.workspace }}`. */
const stepEnv = (inputs: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(releaseStep.env ?? {}).map(([name, value]) => [
      name,
      value.replace(/\$\{\{ (inputs|github)\.([a-z_-]+) \}\}/g, (_, scope: string, key: string) =>
        scope === "github" ? (key === "workspace" ? workspace : "") : (inputs[key] ?? action.inputs[key]?.default ?? ""),
      ),
    ]),
  )

/** Runs the action's release step: its script under bash in the workspace, the action's folder as GITHUB_ACTION_PATH. */
const runReleaseStep = (inputs: Readonly<Record<string, string>>, env: Readonly<Record<string, string>>) =>
  runProcess("bash", ["-c", releaseStep.run!], {
    cwd: workspace,
    env: { PCKGATE_TOKEN: "", PCKGATE_TOKEN_COMMAND: "", ...NO_CI_ID_TOKEN, GITHUB_ACTIONS: "true", GITHUB_ACTION_PATH: REPO_ROOT, ...stepEnv(inputs), ...env },
  })

describe("action.yml", () => {
  test("a composite action: sets up Node 24, then runs the CLI's release --game with trusted publishing and no token", () => {
    expect(action.runs.using).toBe("composite")
    expect(action.runs.steps[0]).toMatchObject({ uses: "actions/setup-node@v4", with: { "node-version": "24" } })
    expect(releaseStep.run).toMatch(/^node "\$GITHUB_ACTION_PATH\/apps\/cli\/main\.ts" release /)
    expect(JSON.stringify(action)).not.toMatch(/PCKGATE_TOKEN|secrets\./)
    expect(Object.keys(action.inputs)).toEqual(["url", "game", "file", "version", "audience"])
  })

  test("no input is spliced into a script: inputs reach the commands only through the environment", () => {
    for (const step of action.runs.steps) expect(step.run ?? "", step.name).not.toMatch(/\$\{\{/)
    const env = stepEnv({ url: "U", game: "G", file: "F", version: "V" })
    expect(Object.values(env)).toEqual(expect.arrayContaining(["U", "G", "F", "V", "pckgate", workspace]))
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
    // A file name relative to the workspace, with a quote and a `$(…)` that an input spliced into the script would run.
    const file = "space's $(touch spliced).pck"
    aPack(file)
    const run = await runReleaseStep({ url: server.baseUrl, file, game: gameId, version: "1.0.0" }, issuer.actionsEnv)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(`released ${gameId} 1.0.0`)
    expect(issuer.actionsRequests.at(-1)).toEqual({ audience: "pckgate", authorization: `Bearer ${issuer.actionsEnv.ACTIONS_ID_TOKEN_REQUEST_TOKEN}` })
    expect(await releases()).toContain("1.0.0")
    expect(existsSync(join(workspace, "spliced"))).toBe(false)
  })

  test("the same run from another repository is refused: exit 2, the claim named, nothing released", async () => {
    issuer.setActionsClaims(githubClaims({ repository: "evil/fork" }))
    try {
      aPack("fork.pck", "clean-update")
      const before = await releases()
      const run = await runReleaseStep({ url: server.baseUrl, file: "fork.pck", game: gameId, version: "1.1.0" }, issuer.actionsEnv)
      expect(run.code).toBe(2)
      expect(run.stderr).toContain("error: sign_in_required")
      expect(run.stderr).toContain("'repository'")
      expect(await releases()).toEqual(before)
    } finally {
      issuer.setActionsClaims(githubClaims())
    }
  })

  test("GitLab CI: the ID token in PCKGATE_ID_TOKEN is exchanged the same way", async () => {
    const run = await runCli(["release", aPack("gitlab.pck", "clean-update"), "--game", gameId, "--version", "1.1.0"], {
      PCKGATE_URL: server.baseUrl,
      PCKGATE_ID_TOKEN: await issuer.gitlab(gitlabClaims()),
    })
    expect(run.code, run.stderr).toBe(0)
    expect(await releases()).toContain("1.1.0")
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
