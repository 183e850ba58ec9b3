import { Cause, Effect } from "effect"

/** What the request log records about one request; filled in while it is handled. */
export interface RequestNote {
  route: string
  userId: string | null
  readonly requestId: string
  readonly startedAt: number
}

/**
 * The request's log line. Redaction is decided here: the path without its query string (presigned URL signatures
 * live there), never a header, a body or a credential; the user id only once a credential proved it.
 */
export const requestLogged = (note: RequestNote, request: Request, status: number, durationMs: number) =>
  Effect.logInfo("request").pipe(
    Effect.annotateLogs({
      requestId: note.requestId,
      method: request.method,
      route: note.route,
      path: pathOf(request.url),
      status,
      durationMs: Math.round(durationMs * 10) / 10,
      userId: note.userId,
    }),
  )

const pathOf = (url: string): string => {
  const start = url.indexOf("/", url.indexOf("//") + 2)
  const end = url.indexOf("?", start)
  return start < 0 ? "/" : url.slice(start, end < 0 ? undefined : end)
}

/** A bug: logged with its cause (for operators), never sent to the client. */
export const unhandledFailure = (note: RequestNote, cause: Cause.Cause<unknown> | string) =>
  Effect.logError("unhandled failure").pipe(
    Effect.annotateLogs({ requestId: note.requestId, route: note.route, cause: typeof cause === "string" ? cause : Cause.pretty(cause) }),
  )

export const dependencyUnavailable = (note: RequestNote, dependency: string, reason: string) =>
  Effect.logWarning("dependency unavailable").pipe(Effect.annotateLogs({ requestId: note.requestId, dependency, reason }))
