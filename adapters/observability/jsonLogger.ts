// The service's one log format: a JSON line per entry, `{ts, level, msg, ...annotations}`, written in batches (one
// write per window, not one per request). Everything logs through Effect's logger (`Effect.logInfo("request").pipe(
// Effect.annotateLogs({...}))`); what may appear in a line is decided where the line is written (see redaction rules in
// the README: paths without query strings, never credentials).
import { Cause, type Duration, Effect, Layer, Logger, type LogLevel, References } from "effect"

export interface LogLine {
  readonly ts: string
  readonly level: "debug" | "info" | "warn" | "error"
  readonly msg: string
  readonly [annotation: string]: unknown
}

const levelOf = (level: LogLevel.LogLevel): LogLine["level"] =>
  level === "Warn" ? "warn" : level === "Error" || level === "Fatal" ? "error" : level === "Info" ? "info" : "debug"

/** Formats an entry as a LogLine: the first message part is `msg`; annotations are spread; a failure's cause is pretty-printed. */
export const logLineLogger: Logger.Logger<unknown, LogLine> = Logger.make(({ cause, date, fiber, logLevel, message }) => {
  const parts = Array.isArray(message) ? message : [message]
  const line: Record<string, unknown> = { ts: date.toISOString(), level: levelOf(logLevel), msg: String(parts[0]) }
  for (const [key, value] of Object.entries(fiber.getRef(References.CurrentLogAnnotations))) line[key] = value
  if (cause.reasons.length > 0) line["cause"] = Cause.pretty(cause)
  return line as LogLine
})

/** JSON lines to `write`, batched per `window`; the last batch is flushed when the layer's scope closes. */
export const layerJsonLogger = (write: (chunk: string) => void, window: Duration.Input = "20 millis") =>
  Logger.layer([
    Logger.batched(Logger.map(logLineLogger, (line) => JSON.stringify(line)), {
      window,
      flush: (lines) => Effect.sync(() => write(`${lines.join("\n")}\n`)),
    }),
  ])

/** Every entry pushed to `sink` as it is logged (tests read what the service logged). */
export const layerCapturedLogs = (sink: Array<LogLine>): Layer.Layer<never> =>
  Logger.layer([Logger.map(logLineLogger, (line) => void sink.push(line))])
