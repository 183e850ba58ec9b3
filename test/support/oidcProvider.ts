// A minimal identity provider for tests, served over real HTTP on loopback: an RSA key and its JWKS, a token minter,
// and the OpenID Connect authorization-code flow with PKCE (discovery, /authorize that signs in whoever the test says
// without a login form, /token that checks the code, the redirect URI, the client and the S256 verifier).
import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose"

export interface OidcClientRegistration {
  readonly clientId: string
  /** Confidential client: the token endpoint requires HTTP Basic with this secret. */
  readonly clientSecret?: string
  readonly redirectUris: ReadonlyArray<string>
}

/** Who the next /authorize signs in, or the error it answers with (as a provider would when the user declines). */
export type NextSignIn =
  | { readonly sub: string; readonly roles?: ReadonlyArray<string>; readonly claims?: JWTPayload }
  | { readonly error: string; readonly description?: string }

/** Changes to the next id token, to test that the relying party refuses it. */
export interface IdTokenTampering {
  readonly nonce?: string
  readonly audience?: string | ReadonlyArray<string>
  readonly issuer?: string
  readonly expiresIn?: string
  /** `HS256` signs with the provider's public JWK as the HMAC secret (key confusion); `none` is an unsigned token. */
  readonly alg?: "HS256" | "none"
  /** Signed by a key the provider never published. */
  readonly foreignKey?: boolean
}

interface IssuedCode {
  readonly clientId: string
  readonly redirectUri: string
  readonly challenge: string
  readonly nonce: string
  readonly user: { readonly sub: string; readonly roles?: ReadonlyArray<string>; readonly claims?: JWTPayload }
  used: boolean
}

const base64Url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url")

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => (text += chunk))
    req.on("end", () => resolve(text))
    req.on("error", reject)
  })

export const startOidcProvider = async (options: { issuer?: string; audience?: string; clients?: ReadonlyArray<OidcClientRegistration> } = {}) => {
  const audience = options.audience ?? "pckgate-api"
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true })
  const foreign = await generateKeyPair("RS256", { extractable: true })
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" }
  const clients = new Map<string, OidcClientRegistration>((options.clients ?? []).map((c) => [c.clientId, c]))
  const codes = new Map<string, IssuedCode>()
  let nextSignIn: NextSignIn = { sub: "idp-user" }
  let tampering: IdTokenTampering | null = null
  let requests = 0
  const authorizeRequests: Array<URLSearchParams> = []
  const tokenRequests: Array<{ readonly params: URLSearchParams; readonly authorization: string | null }> = []
  let issuer = options.issuer ?? ""

  const idToken = async (code: IssuedCode): Promise<string> => {
    const changes = tampering
    tampering = null
    const claims: JWTPayload = { ...code.user.claims, nonce: changes?.nonce ?? code.nonce, ...(code.user.roles !== undefined ? { roles: [...code.user.roles] } : {}) }
    const aud = changes?.audience ?? code.clientId
    const builder = (alg: string) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg, kid: "test-key" })
        .setIssuer(changes?.issuer ?? issuer)
        .setAudience(typeof aud === "string" ? aud : [...aud])
        .setSubject(code.user.sub)
        .setIssuedAt(changes?.expiresIn !== undefined ? "-2h" : new Date())
        .setExpirationTime(changes?.expiresIn ?? "5m")
    if (changes?.alg === "HS256") return builder("HS256").sign(new TextEncoder().encode(JSON.stringify(jwk)))
    if (changes?.alg === "none") {
      const signed = await builder("RS256").sign(privateKey)
      const [, payload] = signed.split(".")
      return `${base64Url(new TextEncoder().encode(JSON.stringify({ alg: "none" })))}.${payload}.`
    }
    return builder("RS256").sign(changes?.foreignKey === true ? foreign.privateKey : privateKey)
  }

  const server = createServer(async (req, res) => {
    requests++
    const url = new URL(req.url ?? "/", issuer)
    const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
    if (url.pathname === "/jwks.json") return json(200, { keys: [jwk] })
    if (url.pathname === "/.well-known/openid-configuration") {
      return json(200, {
        issuer,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        jwks_uri: `${origin}/jwks.json`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "none"],
      })
    }
    if (url.pathname === "/authorize" && req.method === "GET") {
      const q = url.searchParams
      authorizeRequests.push(q)
      const client = clients.get(q.get("client_id") ?? "")
      const redirectUri = q.get("redirect_uri") ?? ""
      // Unknown client or redirect URI: a provider shows an error page and never redirects.
      if (client === undefined || !client.redirectUris.includes(redirectUri)) return void res.writeHead(400).end("unknown client or redirect_uri")
      const back = new URL(redirectUri)
      back.searchParams.set("state", q.get("state") ?? "")
      back.searchParams.set("iss", issuer)
      const invalid = q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256" ||
        (q.get("code_challenge") ?? "").length < 43 || !(q.get("scope") ?? "").split(" ").includes("openid") || !q.get("nonce")
      if (invalid) back.searchParams.set("error", "invalid_request")
      else if ("error" in nextSignIn) {
        back.searchParams.set("error", nextSignIn.error)
        if (nextSignIn.description !== undefined) back.searchParams.set("error_description", nextSignIn.description)
      } else {
        const code = base64Url(randomBytes(24))
        codes.set(code, { clientId: client.clientId, redirectUri, challenge: q.get("code_challenge")!, nonce: q.get("nonce")!, user: nextSignIn, used: false })
        back.searchParams.set("code", code)
      }
      return void res.writeHead(302, { location: back.toString() }).end()
    }
    if (url.pathname === "/token" && req.method === "POST") {
      const params = new URLSearchParams(await readBody(req))
      const authorization = req.headers.authorization ?? null
      tokenRequests.push({ params, authorization })
      const client = clients.get(params.get("client_id") ?? "")
      if (client === undefined) return json(401, { error: "invalid_client" })
      if (client.clientSecret !== undefined) {
        // RFC 6749 §2.3.1: Basic over the form-urlencoded id and secret.
        const decoded = authorization?.startsWith("Basic ") === true ? Buffer.from(authorization.slice(6), "base64").toString("utf8") : ""
        const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, " "))
        const [id, secret] = decoded.includes(":") ? [decoded.slice(0, decoded.indexOf(":")), decoded.slice(decoded.indexOf(":") + 1)].map(formDecode) : ["", ""]
        if (id !== client.clientId || secret !== client.clientSecret) return json(401, { error: "invalid_client" })
      }
      const code = codes.get(params.get("code") ?? "")
      if (params.get("grant_type") !== "authorization_code" || code === undefined || code.used) return json(400, { error: "invalid_grant" })
      code.used = true
      if (code.clientId !== client.clientId || code.redirectUri !== params.get("redirect_uri")) return json(400, { error: "invalid_grant" })
      const verifier = params.get("code_verifier") ?? ""
      if (createHash("sha256").update(verifier).digest("base64url") !== code.challenge) return json(400, { error: "invalid_grant", error_description: "PKCE verification failed" })
      return json(200, { access_token: base64Url(randomBytes(24)), token_type: "Bearer", expires_in: 3600, id_token: await idToken(code) })
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`
  // By default the provider is its own issuer, so discovery at `<issuer>/.well-known/openid-configuration` reaches it.
  if (issuer === "") issuer = origin
  return {
    issuer,
    audience,
    origin,
    jwksUrl: `${origin}/jwks.json`,
    publicJwk: jwk,
    jwksRequests: () => requests,
    registerClient: (client: OidcClientRegistration) => void clients.set(client.clientId, client),
    /** Who the next sign-ins are (until changed). */
    signInAs: (next: NextSignIn) => void (nextSignIn = next),
    /** Applies to the next id token only. */
    tamperNextIdToken: (changes: IdTokenTampering) => void (tampering = changes),
    authorizeRequests: () => authorizeRequests,
    tokenRequests: () => tokenRequests,
    sign: (claims: JWTPayload & { sub?: string }, overrides: { expiresIn?: string; audience?: string; issuer?: string } = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: "test-key" })
        .setIssuer(overrides.issuer ?? issuer)
        .setAudience(overrides.audience ?? audience)
        .setIssuedAt()
        .setExpirationTime(overrides.expiresIn ?? "1h")
        .sign(privateKey),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

export type OidcProvider = Awaited<ReturnType<typeof startOidcProvider>>
