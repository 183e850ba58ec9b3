// Trusted publishing from the CLI: with no --token and no PCKGATE_TOKEN, under GitHub Actions (the runner's
// ACTIONS_ID_TOKEN_REQUEST_URL and _TOKEN, which a job with `permissions: id-token: write` has) or GitLab CI (an ID
// token the job declares as PCKGATE_ID_TOKEN), the CI's ID token is exchanged for the service's 15-minute publishing
// token. The exchange runs again whenever the service answers 401, since an upload can outlast 15 minutes.
import { Schema } from "effect"
import { PublishingToken } from "../../adapters/http/openapi/schemas.ts"
import { decodeReply, failureFrom, serviceErrorFrom } from "./client.ts"
import { cliError } from "./failure.ts"

export const DEFAULT_AUDIENCE = "pckgate"

export interface IdTokenSource {
  /** For messages: where the ID token comes from. */
  readonly name: string
  readonly idToken: () => Promise<string>
}

const ActionsTokenReply = Schema.Struct({ value: Schema.String })

/** The CI's ID token source, or null outside a CI that offers one. */
export const idTokenSource = (env: Readonly<Record<string, string | undefined>>): IdTokenSource | null => {
  const audience = env["PCKGATE_AUDIENCE"] || DEFAULT_AUDIENCE
  const requestUrl = env["ACTIONS_ID_TOKEN_REQUEST_URL"]
  const requestToken = env["ACTIONS_ID_TOKEN_REQUEST_TOKEN"]
  if (requestUrl && requestToken) {
    return {
      name: "GitHub Actions",
      idToken: async () => {
        const url = new URL(requestUrl)
        url.searchParams.set("audience", audience)
        let response: Response
        try {
          response = await fetch(url, { headers: { authorization: `Bearer ${requestToken}`, accept: "application/json" } })
        } catch (cause) {
          throw cliError("network", `could not ask GitHub Actions for an ID token: ${cause instanceof Error ? cause.message : String(cause)}`)
        }
        const text = await response.text()
        if (!response.ok) {
          throw cliError("sign_in_required", `GitHub Actions refused an ID token (${response.status}); give the job 'permissions: id-token: write'`)
        }
        return decodeReply(ActionsTokenReply, "GitHub Actions' ID token endpoint", response.status, text).value
      },
    }
  }
  const gitlab = env["PCKGATE_ID_TOKEN"]
  if (gitlab) return { name: "GitLab CI (PCKGATE_ID_TOKEN)", idToken: async () => gitlab }
  return null
}

/** The CI's ID token exchanged for a publishing token; `gameId` picks the game when the workflow publishes several. */
export const exchangeIdToken = async (serviceUrl: string, source: IdTokenSource, gameId: string | undefined): Promise<string> => {
  const idToken = await source.idToken()
  let response: Response
  let text: string
  try {
    response = await fetch(`${serviceUrl}/api/auth/trusted-publishing/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(gameId === undefined ? { token: idToken } : { token: idToken, gameId }),
    })
    text = await response.text()
  } catch (cause) {
    const reason = cause instanceof Error ? String(cause.cause ?? cause.message) : String(cause)
    throw cliError("network", `could not reach ${serviceUrl}: ${reason}`)
  }
  if (!response.ok) {
    const error = serviceErrorFrom(response.status, text, response.headers.get("retry-after"))
    throw failureFrom({ ...error, detail: `trusted publishing from ${source.name}: ${error.detail}` })
  }
  return decodeReply(PublishingToken, "POST /api/auth/trusted-publishing/token", response.status, text).token
}
