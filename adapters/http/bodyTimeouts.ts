// Every request body the app reads has an idle timeout and a total deadline: a client that stalls, or trickles bytes
// forever, must not hold a connection, a file descriptor or a temporary file. The idle clock runs only while the
// reader waits for the client (not while it is busy writing what it got), so a slow disk is never blamed on the client.

export interface BodyTimeouts {
  /** Fail when no bytes arrive for this long while the reader waits for them. */
  readonly idleMs: number
  /** Fail when the whole body takes longer than this. */
  readonly deadlineMs: number
}

/** UPLOAD_IDLE_TIMEOUT_SECONDS and UPLOAD_DEADLINE_SECONDS when unset; JSON bodies get the idle period as their deadline. */
export const DEFAULT_BODY_TIMEOUTS: BodyTimeouts = { idleMs: 60_000, deadlineMs: 2 * 3600_000 }

/** The stream errors with this when a timeout fires; `what` says which. */
export class BodyTimedOut extends Error {
  readonly what: "idle" | "deadline"
  constructor(what: "idle" | "deadline") {
    super(`the request body timed out (${what})`)
    this.name = "BodyTimedOut"
    this.what = what
  }
}

export interface GuardedBody {
  readonly stream: ReadableStream<Uint8Array>
  /** Which timeout fired, if one did: the caller answers 408 instead of blaming a broken connection. */
  readonly timedOut: () => "idle" | "deadline" | null
}

/**
 * Wraps a body so it errors with BodyTimedOut when the client stalls or overruns the deadline (the source is cancelled).
 * Each read races only a timeout promise of its own: racing one long-lived deadline promise would hang a reaction on
 * it per chunk, each holding the chunk it answered, so a 512 MiB upload kept 512 MiB until the deadline.
 */
export const guardBody = (body: ReadableStream<Uint8Array>, timeouts: BodyTimeouts): GuardedBody => {
  const reader = body.getReader()
  let fired: "idle" | "deadline" | null = null
  let deadlinePassed = false
  let deadlineTimer: ReturnType<typeof setTimeout> | undefined
  /** Fails the read under way, if any. */
  let failRead: ((error: BodyTimedOut) => void) | null = null
  const stop = (error: unknown) => {
    clearTimeout(deadlineTimer)
    void reader.cancel(error).catch(() => undefined)
  }
  const stream = new ReadableStream<Uint8Array>({
    start() {
      deadlineTimer = setTimeout(() => {
        deadlinePassed = true
        failRead?.(new BodyTimedOut("deadline"))
      }, timeouts.deadlineMs)
    },
    async pull(controller) {
      let idleTimer: ReturnType<typeof setTimeout> | undefined
      const timedOut = new Promise<never>((_, reject) => {
        failRead = reject
        idleTimer = setTimeout(() => reject(new BodyTimedOut("idle")), timeouts.idleMs)
      })
      try {
        if (deadlinePassed) throw new BodyTimedOut("deadline")
        const next = await Promise.race([reader.read(), timedOut])
        if (next.done) {
          clearTimeout(deadlineTimer)
          controller.close()
        } else controller.enqueue(next.value)
      } catch (error) {
        if (error instanceof BodyTimedOut) fired ??= error.what
        stop(error)
        controller.error(error)
      } finally {
        clearTimeout(idleTimer)
        failRead = null
        timedOut.catch(() => undefined)
      }
    },
    cancel(reason) {
      stop(reason)
    },
  }, { highWaterMark: 0 })
  return { stream, timedOut: () => fired }
}
