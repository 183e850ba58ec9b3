import { Effect } from "effect"

/** One log line through Effect's logger: a message and its fields (see jsonLogger.ts for the format). */
export const logged = (level: "info" | "warn" | "error", msg: string, fields: Record<string, unknown> = {}): Effect.Effect<void> =>
  (level === "info" ? Effect.logInfo(msg) : level === "warn" ? Effect.logWarning(msg) : Effect.logError(msg)).pipe(Effect.annotateLogs(fields))
