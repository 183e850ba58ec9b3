// A local stand-in for the CI providers' OIDC issuers, over real HTTP on loopback: a GitHub Actions issuer
// (`<base>/github`, keys at /.well-known/jwks), a GitLab issuer (`<base>/gitlab`, keys at /oauth/discovery/keys), an
// issuer nobody registered (`<base>/elsewhere`), and the Actions runner's token endpoint (ACTIONS_ID_TOKEN_REQUEST_URL),
// which hands out a GitHub-shaped ID token for the audience asked for.
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose"

export interface Minting {
  readonly audience?: string
  /** e.g. "-1m": already expired. */
  readonly expiresAt?: string
  readonly notBefore?: string
  /** Signed by a key the issuer never published. */
  readonly foreignKey?: boolean
}

export const githubClaims = (over: Record<string, unknown> = {}): JWTPayload => ({
  repository: "octo-org/space-game",
  repository_id: "700100",
  repository_owner: "octo-org",
  repository_owner_id: "700200",
  workflow_ref: "octo-org/space-game/.github/workflows/release.yml@refs/heads/main",
  job_workflow_ref: "octo-org/space-game/.github/workflows/release.yml@refs/heads/main",
  ref: "refs/heads/main",
  environment: "production",
  event_name: "push",
  sub: "repo:octo-org/space-game:environment:production",
  ...over,
})

export const gitlabClaims = (over: Record<string, unknown> = {}): JWTPayload => ({
  project_path: "games/dungeon",
  project_id: "800100",
  namespace_path: "games",
  namespace_id: "800200",
  ci_config_ref_uri: "gitlab.example.com/games/dungeon//.gitlab-ci.yml@refs/heads/main",
  ref: "main",
  ref_path: "refs/heads/main",
  ref_type: "branch",
  environment: "production",
  sub: "project_path:games/dungeon:ref_type:branch:ref:main",
  ...over,
})

export const startCiIssuer = async () => {
  const kinds = ["github", "gitlab", "elsewhere"] as const
  const keys = Object.fromEntries(await Promise.all(kinds.map(async (kind) => [kind, await generateKeyPair("RS256", { extractable: true })] as const)))
  const foreign = await generateKeyPair("RS256", { extractable: true })
  const jwks = Object.fromEntries(await Promise.all(kinds.map(async (kind) => [kind, { keys: [{ ...(await exportJWK(keys[kind]!.publicKey)), kid: `${kind}-key`, alg: "RS256", use: "sig" }] }] as const)))
  let base = ""
  /** What the Actions endpoint puts in its next tokens (besides the audience asked for). */
  let actionsClaims: JWTPayload = githubClaims()
  const actionsRequestToken = "runner-request-token"
  const actionsRequests: Array<{ audience: string | null; authorization: string | null }> = []

  const mint = (kind: (typeof kinds)[number], claims: JWTPayload, minting: Minting = {}) => {
    const builder = new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: `${kind}-key` })
      .setIssuer(`${base}/${kind}`)
      .setAudience(minting.audience ?? "pckgate")
      .setIssuedAt()
      .setExpirationTime(minting.expiresAt ?? "5m")
    if (minting.notBefore !== undefined) builder.setNotBefore(minting.notBefore)
    return builder.sign(minting.foreignKey === true ? foreign.privateKey : keys[kind]!.privateKey)
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base)
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(body))
    }
    if (url.pathname === "/github/.well-known/jwks") return send(200, jwks["github"])
    if (url.pathname === "/gitlab/oauth/discovery/keys") return send(200, jwks["gitlab"])
    if (url.pathname === "/elsewhere/.well-known/jwks") return send(200, jwks["elsewhere"])
    if (url.pathname === "/actions/token") {
      const authorization = req.headers.authorization ?? null
      actionsRequests.push({ audience: url.searchParams.get("audience"), authorization })
      if (authorization !== `Bearer ${actionsRequestToken}`) return send(401, { message: "bad request token" })
      const audience = url.searchParams.get("audience") ?? "https://github.com/octo-org"
      return send(200, { count: 1, value: await mint("github", actionsClaims, { audience }) })
    }
    send(404, { error: "not found" })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    base,
    githubIssuer: `${base}/github`,
    gitlabIssuer: `${base}/gitlab`,
    github: (claims: JWTPayload = githubClaims(), minting?: Minting) => mint("github", claims, minting),
    gitlab: (claims: JWTPayload = gitlabClaims(), minting?: Minting) => mint("gitlab", claims, minting),
    /** Well signed, by an issuer the service does not know. */
    elsewhere: (claims: JWTPayload = githubClaims(), minting?: Minting) => mint("elsewhere", claims, minting),
    /** The runner's environment for the CLI: ACTIONS_ID_TOKEN_REQUEST_URL and _TOKEN. */
    actionsEnv: { ACTIONS_ID_TOKEN_REQUEST_URL: `${base}/actions/token?api-version=2.0`, ACTIONS_ID_TOKEN_REQUEST_TOKEN: actionsRequestToken },
    setActionsClaims: (claims: JWTPayload) => void (actionsClaims = claims),
    actionsRequests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type CiIssuerDouble = Awaited<ReturnType<typeof startCiIssuer>>
