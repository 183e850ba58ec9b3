import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, inject, test } from "vitest"
import { WEBHOOK_HEADERS } from "../../adapters/notifier/webhookSignature.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { apiClient, artifact } from "../support/api.ts"
import { sendMultipart } from "../support/multipart.ts"
import { FAULT_SERVER_ENTRY } from "../support/pausedServer.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { sha256Hex } from "../support/streams.ts"
import { pack } from "../submit/fixtures.ts"
import { type Receiver, startReceiver, verifies } from "./receiver.ts"

// The real server process (`npm start`) with REVIEW_WEBHOOK_URL pointing at a receiver on loopback.
const SECRET = "e2e-webhook-secret-0123456789abcdef-0123"
const PATH_TOKEN = "T0KEN-e2e-9c1d"

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const receiver = async (): Promise<Receiver> => {
  const started = await startReceiver({ path: `/hooks/${PATH_TOKEN}` })
  cleanups.push(started.close)
  return started
}

const webhookEnv = (target: Receiver, extra: Record<string, string> = {}) => ({
  RATE_LIMIT_COUNT: "100",
  REVIEW_WEBHOOK_URL: target.url,
  REVIEW_WEBHOOK_SECRET: SECRET,
  REVIEW_WEBHOOK_RETRY_BASE_MS: "50",
  ...extra,
})

const server = async (options: Parameters<typeof startServer>[0]): Promise<RunningServer> => {
  const started = await startServer(options)
  cleanups.push(async () => started.process.exitCode === null && started.process.signalCode === null ? started.stop() : undefined)
  return started
}

/** create → upload-url → PUT; the finalize is left to the caller. */
const uploaded = async (running: RunningServer, user: string) => {
  const api = apiClient(running.baseUrl)
  const token = running.token(user)
  const gameId: string = (await api.createGame(token, { name: `Webhook ${user}` })).body.gameId
  const pck = artifact(8192)
  const presigned = await api.uploadUrl(token, gameId, pck.declaration)
  expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(200)
  return { api, token, gameId, declaration: pck.declaration }
}

const expectSignedEvent = (target: Receiver, gameId: string, declaration: { version: string; sha256: string; sizeBytes: number }) => {
  const accepted = target.accepted().filter((c) => JSON.parse(c.body).data.gameId === gameId)
  expect(accepted).toHaveLength(1)
  const [call] = accepted
  expect(verifies(call!, SECRET)).toBe(true)
  expect(verifies(call!, SECRET, call!.body.replace(declaration.sha256, "0".repeat(64)))).toBe(false)
  const body = JSON.parse(call!.body)
  expect(body).toMatchObject({ id: call!.headers[WEBHOOK_HEADERS.id], type: "release.finalized", data: { gameId, ...declaration } })
  expect(body.id).toMatch(/^evt_/)
  expect(Date.parse(body.createdAt)).not.toBeNaN()
}

const expectNoSecrets = (output: string) => {
  expect(output).not.toContain(SECRET)
  expect(output).not.toContain(PATH_TOKEN)
  expect(output).not.toMatch(/v1=[0-9a-f]{64}/)
}

describe("review webhook from the real server process", () => {
  test("finalize → the receiver gets one signed POST; the log line is written too", async () => {
    const target = await receiver()
    const running = await server({ env: webhookEnv(target) })
    const line = `notifications: log lines + webhook to ${new URL(target.url).origin} (`
    expect(await running.outputContaining(line)).toContain(line)
    const { api, token, gameId, declaration } = await uploaded(running, "hook-creator")
    expect((await api.finalize(token, gameId, declaration)).status).toBe(201)
    await target.until((r) => r.accepted().length === 1, "the finalize event")
    expectSignedEvent(target, gameId, declaration)
    const output = await running.outputContaining('"msg":"webhook delivered"')
    expect(output).toContain('"msg":"review requested"')
    expect(await running.stop()).toBe(0)
    expectNoSecrets(running.output())
  })

  test("a multipart submission → the receiver gets one signed submission.received POST", async () => {
    const target = await receiver()
    const running = await server({ env: webhookEnv(target) })
    const clean = pack("clean")
    const outcome = await sendMultipart(`${running.baseUrl}/submit-api/games/submit`, [
      { name: "pck", filename: "game.pck", contentType: "application/octet-stream", body: clean.bytes },
      { name: "manifest", body: clean.manifestText },
    ], { headers: { authorization: `Bearer ${running.token("hook-submitter")}` } })
    expect(outcome.kind === "answered" && outcome.status).toBe(200)
    const gameId: string = outcome.kind === "answered" ? outcome.body.gameId : ""
    await target.until((r) => r.accepted().length === 1, "the submission event")
    const [call] = target.accepted()
    expect(verifies(call!, SECRET)).toBe(true)
    expect(JSON.parse(call!.body)).toMatchObject({
      type: "submission.received",
      data: { gameId, version: JSON.parse(clean.manifestText).version, sha256: sha256Hex(clean.bytes), sizeBytes: clean.bytes.length },
    })
    expect(call!.headers[WEBHOOK_HEADERS.event]).toBe("submission.received")
    expect(await running.stop()).toBe(0)
    expectNoSecrets(running.output())
  })

  test("receiver down → the server is stopped → started again on the same DATA_DIR → the event is delivered, once", async () => {
    const target = await receiver()
    await target.down()
    const dataDir = mkdtempSync(join(inject("runDir"), "webhook-restart-"))
    const first = await server({ dataDir, env: webhookEnv(target) })
    const { api, token, gameId, declaration } = await uploaded(first, "hook-down")
    expect((await api.finalize(token, gameId, declaration)).status).toBe(201)
    await first.outputContaining('"msg":"webhook attempt failed"')
    expect(await first.stop()).toBe(0)
    expect(target.calls).toHaveLength(0)

    await target.up()
    const second = await server({ dataDir, env: webhookEnv(target) })
    await target.until((r) => r.accepted().length === 1, "the event queued before the restart")
    expectSignedEvent(target, gameId, declaration)
    await second.outputContaining('"msg":"webhook delivered"')
    expect(await second.stop()).toBe(0)
    expect(target.calls).toHaveLength(1)
    expectNoSecrets(first.output() + second.output())
  })

  const stores: ReadonlyArray<readonly [string, () => Promise<Record<string, string>>]> = [
    ["SQLite", async () => ({})],
    ["MariaDB", async () => ({ DATABASE_URL: await freshDatabase(inject("mariadbUrl"), "webhook_gap") })],
  ]
  test.each(stores)("%s: killed after the release committed but before its event was queued → the restarted server still sends it", async (_name, storeEnv) => {
    const target = await receiver()
    const env = webhookEnv(target, await storeEnv())
    const dataDir = mkdtempSync(join(inject("runDir"), "webhook-gap-"))
    const paused = await server({ dataDir, entry: FAULT_SERVER_ENTRY, env: { ...env, PCKGATE_TEST_PAUSE_AT: "finalize:after-commit" } })
    const { api, token, gameId, declaration } = await uploaded(paused, "hook-gap")
    const lost = api.finalize(token, gameId, declaration).catch((error: unknown) => error)
    await paused.outputContaining("paused at finalize:after-commit")
    await paused.kill()
    expect(await lost).toBeInstanceOf(Error)
    expect(target.calls).toHaveLength(0)

    const restarted = await server({ dataDir, env })
    await target.until((r) => r.accepted().length === 1, "the recovered event")
    expectSignedEvent(target, gameId, declaration)
    await restarted.outputContaining('"msg":"webhook event queued for a pending release that had none"')
    expect(await restarted.stop()).toBe(0)
  })

  test("REVIEW_WEBHOOK_URL without a usable secret: the server refuses to start and says why, quoting neither", async () => {
    const url = `http://127.0.0.1:9/hooks/${PATH_TOKEN}`
    await expect(startServer({ env: { REVIEW_WEBHOOK_URL: url } })).rejects.toThrow(/config error: REVIEW_WEBHOOK_SECRET is required when REVIEW_WEBHOOK_URL is set/)
    const short = startServer({ env: { REVIEW_WEBHOOK_URL: url, REVIEW_WEBHOOK_SECRET: "too-short-secret" } })
    await expect(short).rejects.toThrow(/REVIEW_WEBHOOK_SECRET must be at least 32 characters \(got 16\)/)
    await expect(short).rejects.not.toThrow(/too-short-secret|T0KEN/)
  })
})
