// Identity (`pckgate/identity`): JWT verification with jose, the dev issuer, the short-lived upload tokens and the
// browser's OIDC sign-in. Each file exports only its public API, so everything is re-exported.
export * from "./DevIssuer.ts"
export * from "./JwtIdentity.ts"
export * from "./JwtUploadTokens.ts"
export * from "./OidcLogin.ts"
export * from "./JwtPublishTokens.ts"
export * from "./JoseCiIdentity.ts"
