import { Effect } from "effect"
import { InvalidRequest, RequestTooLarge } from "../../domain/errors.ts"
import { readAtMost } from "../shared/bytes.ts"

/** Largest JSON body any endpoint accepts. */
export const JSON_BODY_LIMIT_BYTES = 64 * 1024

/** Reads the request body as JSON, stopping as soon as it passes the limit. */
export const readJsonBody = Effect.fnUntraced(function*(request: Request, limitBytes: number = JSON_BODY_LIMIT_BYTES) {
  const declared = Number(request.headers.get("content-length") ?? "0")
  if (declared > limitBytes) return yield* new RequestTooLarge({ limitBytes })
  const text = yield* Effect.promise(async (): Promise<string | "too_large"> => {
    if (request.body === null) return ""
    // A client that goes away mid-body leaves an empty body: reported as invalid, and nothing happens.
    const bytes = await readAtMost(request.body, limitBytes).catch(() => new Uint8Array(0))
    return bytes === "too_large" ? bytes : new TextDecoder().decode(bytes)
  })
  if (text === "too_large") return yield* new RequestTooLarge({ limitBytes })
  if (text.trim() === "") return yield* new InvalidRequest({ problems: ["body: expected a JSON object, got an empty body"] })
  try {
    return JSON.parse(text) as unknown
  } catch {
    return yield* new InvalidRequest({ problems: ["body: not valid JSON"] })
  }
})

