import { Effect } from "effect"
import { InvalidRequest, RequestTimedOut, RequestTooLarge } from "../../domain/errors.ts"
import { readAtMost } from "../shared/bytes.ts"
import { type BodyTimeouts, DEFAULT_BODY_TIMEOUTS, guardBody } from "./bodyTimeouts.ts"

/** Largest JSON body any endpoint accepts. */
export const JSON_BODY_LIMIT_BYTES = 64 * 1024

/** JSON is UTF-8: bytes that are not are refused, never read as U+FFFD (a leading BOM is dropped). */
const UTF8 = new TextDecoder("utf-8", { fatal: true })

/**
 * Reads a small body whole, stopping as soon as it passes the limit. It must arrive within the idle period in all (a
 * small body has no reason to trickle); "timeout" names which timeout fired, and a client gone midway reads as empty.
 */
export const readSmallBody = async (
  request: Request,
  limitBytes: number,
  timeouts: BodyTimeouts = DEFAULT_BODY_TIMEOUTS,
): Promise<Uint8Array | "too_large" | { readonly timeout: "idle" | "deadline" }> => {
  if (request.body === null) return new Uint8Array(0)
  const guarded = guardBody(request.body, { idleMs: timeouts.idleMs, deadlineMs: timeouts.idleMs })
  try {
    return await readAtMost(guarded.stream, limitBytes)
  } catch {
    const fired = guarded.timedOut()
    return fired !== null ? { timeout: fired } : new Uint8Array(0)
  }
}

/**
 * Reads the request body as JSON, stopping as soon as it passes the limit. An empty body is refused, unless the
 * endpoint's body is optional (`optional`): then an absent or empty body reads as `{}`.
 */
export const readJsonBody = Effect.fnUntraced(function*(
  request: Request,
  timeouts: BodyTimeouts = DEFAULT_BODY_TIMEOUTS,
  limitBytes: number = JSON_BODY_LIMIT_BYTES,
  optional = false,
) {
  const declared = Number(request.headers.get("content-length") ?? "0")
  if (declared > limitBytes) return yield* new RequestTooLarge({ limitBytes })
  const bytes = yield* Effect.promise(() => readSmallBody(request, limitBytes, timeouts))
  if (bytes === "too_large") return yield* new RequestTooLarge({ limitBytes })
  if ("timeout" in bytes) return yield* new RequestTimedOut({ what: bytes.timeout })
  let text: string
  try {
    text = UTF8.decode(bytes)
  } catch {
    return yield* new InvalidRequest({ problems: ["body: not valid UTF-8; send the JSON encoded as UTF-8"] })
  }
  if (text.trim() === "") {
    if (optional) return {} as unknown
    return yield* new InvalidRequest({ problems: ["body: expected a JSON object, got an empty body"] })
  }
  try {
    return JSON.parse(text) as unknown
  } catch {
    return yield* new InvalidRequest({ problems: ["body: not valid JSON"] })
  }
})
