// Runs a command body: failures become their exit code and message; --json prints one result on stdout.
import { CliFailure, failureFrom, type Reply } from "./client.ts"
import { type CliIo, EXIT } from "./io.ts"

export const runCommand = async (io: CliIo, json: boolean, body: () => Promise<Record<string, unknown> | null>): Promise<number> => {
  try {
    const result = await body()
    if (result !== null) io.stdout(`${JSON.stringify(result)}\n`)
    return EXIT.ok
  } catch (error) {
    if (error instanceof CliFailure) {
      if (json) io.stdout(`${JSON.stringify({ ok: false, ...error.json, ...(error.json["error"] === undefined ? { error: error.message } : {}) })}\n`)
      io.stderr(`${error.message}\n`)
      return error.exitCode
    }
    throw error
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * The body of a successful reply. A 429 prints when to retry; with `wait` it sleeps until then and retries,
 * otherwise it ends the command with exit code 4.
 */
export const withRateLimitWait = async (io: CliIo, wait: boolean, call: () => Promise<Reply>): Promise<any> => {
  for (;;) {
    const reply = await call()
    if (reply.ok) return reply.body
    if (reply.error.status === 429 && reply.error.retryAfterSeconds !== undefined) {
      io.stderr(`rate limited: retry in ${reply.error.retryAfterSeconds} s${wait ? " (waiting)" : " (pass --wait to wait and retry)"}\n`)
      if (wait) {
        await sleep(reply.error.retryAfterSeconds * 1000)
        continue
      }
    }
    throw failureFrom(reply.error)
  }
}

export { EXIT }
