// `npm start`: configuration → the server's layer graph (apps/server/compose.ts), launched until SIGTERM or SIGINT.
import { mkdir } from "node:fs/promises"
import { Cause, Effect, Fiber, Layer, Option } from "effect"
import { serverLayer } from "./compose.ts"
import { readConfig } from "./config.ts"

const parsed = readConfig(process.env)
if ("errors" in parsed) {
  for (const error of parsed.errors) console.error(`config error: ${error}`)
  process.exit(2)
}
const config = parsed.config
// Everything the service creates (records, their WAL, objects, keys, folders) is private to its user.
process.umask(0o077)
await mkdir(config.dataDir, { recursive: true, mode: 0o700 })

// Log lines arrive in batches from Effect's logger (apps/server/observability.ts); the last batch is flushed when the
// graph's scope closes.
const server = Effect.runFork(Layer.launch(serverLayer(config, (chunk) => process.stdout.write(chunk))))

let stopping = false
const shutdown = (signal: string) => {
  if (stopping) return
  stopping = true
  console.log(`${signal}: finishing in-flight requests, then exiting`)
  // Interrupting the launched graph closes its scope: the listener drains, the workers stop, the database closes.
  void Effect.runPromise(Fiber.interrupt(server)).finally(() => process.exit(0))
  setTimeout(() => process.exit(0), 12_000).unref()
}
process.on("SIGTERM", () => shutdown("SIGTERM"))
process.on("SIGINT", () => shutdown("SIGINT"))

const MISSING_PACKAGE = /[^:\n]*needs the package '[^']+', which is not installed: run `npm install [^`]+` next to pckgate/

// The graph only ends by failing to start (a port in use, a broken configuration): one clear line, exit 2.
const exit = await Effect.runPromise(Fiber.await(server))
if (!stopping && exit._tag === "Failure") {
  const error = Cause.findErrorOption(exit.cause)
  const failed = Option.getOrUndefined(error) as { readonly _tag?: string; readonly reason?: string } | undefined
  // A missing optional package (mysql2, @google-cloud/storage) is named with the command that adds it.
  // (It may arrive wrapped, e.g. as the database's Unavailable: the sentence is found in whatever carries it.)
  const texts = [failed?.reason ?? "", ...Cause.prettyErrors(exit.cause).map((e) => e.message)]
  const missing = texts.map((text) => MISSING_PACKAGE.exec(text)?.[0]).find((line) => line !== undefined)
  if (failed?._tag === "ListenFailed") console.error(`cannot start: ${failed.reason}`)
  else if (missing !== undefined) console.error(`cannot start: ${missing.trim()}`)
  else console.error(`cannot start: ${Cause.pretty(exit.cause)}`)
  process.exit(2)
}
