import { Effect, Layer } from "effect"
import { DEV_AUDIENCE, DEV_ISSUER, generateDevJwk, makeDevIssuerFromJwk } from "../../adapters/identity/DevIssuer.ts"
import { layerJwtIdentity } from "../../adapters/identity/JwtIdentity.ts"
import { layerEphemeralUploadTokens } from "../../adapters/identity/JwtUploadTokens.ts"
import { identityContract, TokenSource } from "../contract/Identity.contract.ts"
import { uploadTokensContract } from "../contract/UploadTokens.contract.ts"

// The jose-backed adapters: access tokens from the dev issuer (a fresh ES256 key per suite), upload tokens signed
// with their own key.
const joseIdentity = () =>
  Layer.unwrap(Effect.promise(async () => {
    const issuer = await makeDevIssuerFromJwk(await generateDevJwk())
    return Layer.merge(
      layerJwtIdentity({ keys: issuer.keys, issuer: DEV_ISSUER, audience: DEV_AUDIENCE }),
      Layer.succeed(TokenSource, { tokenFor: (p) => Effect.promise(() => issuer.issue({ userId: p.userId, admin: p.isAdmin })) }),
    )
  }))

identityContract("jose", joseIdentity)
uploadTokensContract("jose", () => layerEphemeralUploadTokens)
