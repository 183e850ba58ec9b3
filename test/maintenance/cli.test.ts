import { MIGRATION_NAMES } from "../../adapters/sql/migrate.ts"
import { spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer, Option } from "effect"
import { describe, expect, inject, test } from "vitest"
import { layerManualClock } from "../../adapters/memory/MemoryClock.ts"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { layerLocalDiskStorage } from "../../adapters/storage-local/LocalDiskStorage.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { aGame, anIntent, SHA_B } from "../support/fixtures.ts"
import { REPO_ROOT } from "../support/server.ts"
import { bytes, streamOf } from "../support/streams.ts"

const cli = (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const result = spawnSync(process.execPath, ["apps/cli/main.ts", ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, encoding: "utf8" })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe("npm run cli -- migrate / gc", () => {
  test("migrate applies the schema once; a second run applies nothing (SQLite in DATA_DIR)", () => {
    const env = { DATA_DIR: mkdtempSync(join(inject("runDir"), "cli-")) }
    const first = cli(["migrate"], env)
    expect([first.status, first.stdout]).toEqual([0, `SQLite ${join(env.DATA_DIR, "pckgate.sqlite")} (WAL): applied ${MIGRATION_NAMES.join(", ")}\n`])
    expect(cli(["migrate"], env).stdout).toContain("schema is current, nothing to apply")
  })

  test("migrate on MariaDB names the database but never the password", async () => {
    const url = await freshDatabase(inject("mariadbUrl"), "cli")
    const password = decodeURIComponent(new URL(url).password)
    const first = cli(["migrate"], { DATABASE_URL: url, DATA_DIR: mkdtempSync(join(inject("runDir"), "cli-")) })
    expect(first.status).toBe(0)
    expect(first.stdout).toMatch(new RegExp(`^MySQL pckgate@127\\.0\\.0\\.1:\\d+/cli_\\w+: applied ${MIGRATION_NAMES.join(", ")}\\n$`))
    expect(first.stdout + first.stderr).not.toContain(password)
  })

  test("gc deletes an orphaned object and keeps the one a live intent names", async () => {
    const dataDir = mkdtempSync(join(inject("runDir"), "cli-"))
    const game = aGame()
    const intent = anIntent(game.id, { expiresAt: new Date(Date.now() + 3600_000) })
    const orphan = `releases/${game.id}/0.0.1/${SHA_B}.pck`
    const layer = Layer.mergeAll(
      layerSqlRecords({ target: { kind: "sqlite", path: join(dataDir, "pckgate.sqlite") } }),
      layerLocalDiskStorage(join(dataDir, "storage")).pipe(
        Layer.provide(SignedUrls.layer(new Uint8Array(32), () => "http://localhost")),
        Layer.provide(layerManualClock()),
      ),
    )
    const present = (key: string) => Effect.runPromise(ObjectStorage.use((s) => s.head(key)).pipe(Effect.map(Option.isSome), Effect.provide(layer)))
    await Effect.runPromise(
      Effect.gen(function*() {
        yield* (yield* GameStore).insert(game, "system")
        yield* (yield* ReleaseStore).recordIntent(intent)
        const storage = yield* ObjectStorage
        for (const key of [intent.objectKey, orphan]) yield* storage.put(key, streamOf(bytes(key)), { maxBytes: 1000 })
      }).pipe(Effect.provide(layer)),
    )

    expect(cli(["gc", "--grace-seconds", "soon"], { DATA_DIR: dataDir }).status).toBe(2)
    const gc = cli(["gc", "--grace-seconds", "0"], { DATA_DIR: dataDir })
    expect([gc.status, gc.stdout]).toEqual([0, `deleted ${orphan}\nexpired intents removed: 0; objects deleted: 1; kept: 1; abandoned upload files removed: 0 (0 bytes)\n`])
    expect([await present(orphan), await present(intent.objectKey)]).toEqual([false, true])
  })
})
