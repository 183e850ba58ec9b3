// `npm start`: config → layers → serve. Binds first, so PORT=0 works and links use the bound port.
import { createServer, type RequestListener } from "node:http"
import { mkdir } from "node:fs/promises"
import { toNodeHandler } from "srvx/node"
import type { App } from "../../adapters/http/App.ts"
import { batchedLines } from "../../adapters/system/batchedLines.ts"
import { batchedResponses } from "../../adapters/system/batchedResponses.ts"
import { compose } from "./compose.ts"
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

let app: App | null = null
const unavailable = () => new Response('{"error":"service_unavailable","detail":"Starting up; retry in a moment."}', { status: 503, headers: { "content-type": "application/json" } })
const server = createServer(
  // Uploads may take long: no whole-request timeout (uploads enforce their own deadlines); headers must still arrive promptly.
  { requestTimeout: 0, headersTimeout: 60_000, keepAliveTimeout: 5_000 },
  toNodeHandler(batchedResponses((request) => (app === null ? unavailable() : app.fetch(request)))) as RequestListener,
)
// Connections beyond this are refused at once, so a flood of slow clients cannot exhaust file descriptors.
server.maxConnections = config.maxConnections
await new Promise<void>((resolve, reject) => {
  server.once("error", reject)
  server.listen(config.port, config.host, () => resolve())
})
const address = server.address()
const boundPort = typeof address === "object" && address !== null ? address.port : config.port
const baseUrl = config.baseUrl ?? `http://localhost:${boundPort}`

const logLines = batchedLines((chunk) => process.stdout.write(chunk))
process.on("exit", () => logLines.flush())
const composed = await compose(config, () => baseUrl, (entry) => logLines.line(JSON.stringify({ ts: new Date().toISOString(), ...entry })))
app = composed.app

console.log(`pckgate listening on http://${config.host}:${boundPort} (public base URL ${baseUrl})`)
console.log(`data directory: ${config.dataDir}`)
for (const line of composed.describe) console.log(line)
if (config.oidc === null) console.log("get a token: npm run -s cli -- token --user <id> [--admin]")

let stopping = false
const shutdown = (signal: string) => {
  if (stopping) return
  stopping = true
  console.log(`${signal}: finishing in-flight requests, then exiting`)
  server.close(() => void composed.dispose().finally(() => process.exit(0)))
  server.closeIdleConnections()
  setTimeout(() => process.exit(0), 10_000).unref()
}
process.on("SIGTERM", () => shutdown("SIGTERM"))
process.on("SIGINT", () => shutdown("SIGINT"))
