import { Effect, type Scope } from "effect"
import { TooManyUploads } from "../../domain/errors.ts"

/** MAX_UPLOADS_PER_ACCOUNT when unset. */
export const DEFAULT_MAX_UPLOADS_PER_ACCOUNT = 4
/** What a refused upload is told to wait: about as long as a small upload takes. */
const RETRY_AFTER_SECONDS = 30

/**
 * How many uploads (multipart submissions and presigned PUTs) one account may run at once on this instance: a creator
 * cannot hold every connection and file descriptor of the server with parallel slow uploads.
 */
export interface UploadSlots {
  /** Takes a slot for the account, released when the scope closes; TooManyUploads when all are taken. */
  readonly take: (account: string) => Effect.Effect<void, TooManyUploads, Scope.Scope>
}

export const makeUploadSlots = (limit: number): UploadSlots => {
  const running = new Map<string, number>()
  const release = (account: string) =>
    Effect.sync(() => {
      const left = (running.get(account) ?? 1) - 1
      if (left <= 0) running.delete(account)
      else running.set(account, left)
    })
  return {
    take: (account) =>
      Effect.acquireRelease(
        Effect.suspend(() => {
          const now = running.get(account) ?? 0
          if (now >= limit) return Effect.fail(new TooManyUploads({ limit, retryAfterSeconds: RETRY_AFTER_SECONDS }))
          running.set(account, now + 1)
          return Effect.succeed(account)
        }),
        release,
      ).pipe(Effect.asVoid),
  }
}
