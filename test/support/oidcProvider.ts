// A minimal identity provider for tests: an RSA key, its JWKS served over real HTTP on loopback, and a token minter.
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose"

export const startOidcProvider = async (options: { issuer?: string; audience?: string } = {}) => {
  const issuer = options.issuer ?? "https://idp.example.test/"
  const audience = options.audience ?? "pckgate-api"
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true })
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" }
  let requests = 0
  const server = createServer((req, res) => {
    requests++
    if (req.url !== "/jwks.json") return void res.writeHead(404).end()
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    issuer,
    audience,
    jwksUrl: `http://127.0.0.1:${port}/jwks.json`,
    publicJwk: jwk,
    jwksRequests: () => requests,
    sign: (claims: JWTPayload & { sub?: string }, overrides: { expiresIn?: string; audience?: string; issuer?: string } = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: "test-key" })
        .setIssuer(overrides.issuer ?? issuer)
        .setAudience(overrides.audience ?? audience)
        .setIssuedAt()
        .setExpirationTime(overrides.expiresIn ?? "1h")
        .sign(privateKey),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
