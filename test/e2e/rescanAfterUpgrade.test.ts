import { join } from "node:path"
import { Effect, ManagedRuntime, Option } from "effect"
import { afterAll, describe, expect, test } from "vitest"
import { SCANNER_VERSION } from "../../adapters/scanner/scanPack.ts"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { ScanStore } from "../../ports/ScanStore.ts"
import { apiClient, artifact } from "../support/api.ts"
import { type RunningServer, startServer } from "../support/server.ts"

// Issue 13, after it lands: a server started with a newer scanner rescans, in the background, the pending and active
// releases whose reports an older scanner wrote — and nothing else. The older reports are made by rewriting the
// stored report's version while the server is stopped, as an upgrade finds them.

const until = async <A>(what: string, probe: () => Promise<A | undefined>): Promise<A> => {
  const deadline = Date.now() + 30_000
  for (;;) {
    const found = await probe()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe("rescans after a scanner upgrade", () => {
  let server: RunningServer | undefined
  afterAll(async () => {
    await server?.stop()
  })

  test("pending and active releases scanned by an older scanner are scanned again after a restart; rejected ones and newer reports are left", async () => {
    const env = { RATE_LIMIT_COUNT: "100", SCAN_INTERVAL_SECONDS: "1" }
    server = await startServer({ env })
    const api = apiClient(server.baseUrl)
    const creator = server.token("upgrade-creator")
    const admin = server.token("upgrade-admin", { admin: true })
    const gameId: string = (await api.createGame(creator, { name: "Upgraded Scans" })).body.gameId
    const versions = ["1.0.0", "1.1.0", "1.2.0", "1.3.0"]
    for (const version of versions) expect((await api.uploadRelease(creator, gameId, artifact(4096, version))).status).toBe(201)
    const scanOf = async (version: string) => (await api.call("GET", `/api/games/${gameId}/releases/${version}/scan`, { token: creator })).body
    for (const version of versions) await until(`the first scan of ${version}`, async () => ((await scanOf(version)).status === "scanned" ? true : undefined))
    expect((await api.approveScanned(admin, gameId, "1.0.0")).status).toBe(200) // active
    expect((await api.reject(admin, gameId, "1.1.0", "Not this one")).status).toBe(200) // rejected: its report stays as it was
    // 1.2.0 stays pending; 1.3.0 stays pending but its report claims a newer scanner (an instance already upgraded).
    expect(await server.stop()).toBe(0)

    const runtime = ManagedRuntime.make(layerSqlRecords({ target: { kind: "sqlite", path: join(server.dataDir, "pckgate.sqlite") } }))
    const rewrite = (version: string, scannerVersion: string) =>
      runtime.runPromise(Effect.gen(function*() {
        const store = yield* ScanStore
        const record = Option.getOrThrow(yield* store.get(gameId, version))
        yield* store.save({ ...record, report: { ...record.report, scannerVersion } })
      }))
    for (const version of ["1.0.0", "1.1.0", "1.2.0"]) await rewrite(version, "pckgate-scanner/1")
    await rewrite("1.3.0", "pckgate-scanner/999")
    await runtime.dispose()

    server = await startServer({ dataDir: server.dataDir, env })
    const restarted = apiClient(server.baseUrl)
    const versionOf = async (version: string) =>
      (await restarted.call("GET", `/api/games/${gameId}/releases/${version}/scan`, { token: creator })).body.report?.scannerVersion
    for (const version of ["1.0.0", "1.2.0"]) {
      await until(`the rescan of ${version}`, async () => ((await versionOf(version)) === SCANNER_VERSION ? true : undefined))
    }
    await server.outputContaining("releases scanned by an older scanner queued for a rescan")
    expect(await versionOf("1.1.0")).toBe("pckgate-scanner/1")
    expect(await versionOf("1.3.0")).toBe("pckgate-scanner/999")
  }, 120_000)
})
