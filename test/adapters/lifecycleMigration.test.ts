// Migration 0008 on a database that already holds releases: every game keeps the release players got before.
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { type Kysely, sql } from "kysely"
import { afterAll, describe, expect, inject, it } from "vitest"
import { migrateToLatest, migrateUpTo } from "../../adapters/sql/migrate.ts"
import { openMysql, parseMysqlUrl } from "../../adapters/sql/mysql.ts"
import type { Tables } from "../../adapters/sql/schema.ts"
import { openSqlite } from "../../adapters/sql/sqlite.ts"
import { freshDatabase } from "../setup/mariadb.ts"

const opened: Array<Kysely<Tables>> = []
afterAll(async () => {
  for (const db of opened) await db.destroy()
})

const databases = {
  SQLite: async () => ({ db: openSqlite(join(mkdtempSync(join(inject("runDir"), "mig-")), "old.sqlite")), flavor: "sqlite" as const }),
  MariaDB: async () => {
    const target = parseMysqlUrl(await freshDatabase(inject("mariadbUrl"), "lifecycle_migration"))
    if ("error" in target) throw new Error(target.error)
    return { db: await openMysql(target), flavor: "mysql" as const }
  },
}

for (const [name, open] of Object.entries(databases)) {
  describe(`migration 0008 on ${name}`, () => {
    it("points each game at its most recently approved release and widens the statuses", async () => {
      const { db, flavor } = await open()
      opened.push(db)
      await migrateUpTo(db, flavor, "0005_change_feed")
      const time = (iso: string) => (flavor === "mysql" ? new Date(iso) : iso)
      const game = (id: string) => ({
        id, name: id, slug: id, kind: "engine", owner_id: "alice", manifest_id: null,
        created_at: time("2026-01-01T00:00:00.000Z"), updated_at: time("2026-01-01T00:00:00.000Z"),
      })
      await db.insertInto("games").values([game("g1"), game("g2")]).execute()
      const release = (gameId: string, version: string, status: string, reviewedAt: string | null) => ({
        game_id: gameId, version, sha256: "a".repeat(64), size_bytes: 2048, content_type: "application/octet-stream",
        object_key: `releases/${gameId}/${version}/${"a".repeat(64)}.pck`, source: "release_api", status, created_by: "alice",
        created_at: time("2026-01-02T00:00:00.000Z"), reviewed_by: reviewedAt === null ? null : "root",
        reviewed_at: reviewedAt === null ? null : time(reviewedAt), rejection_reason: null,
      })
      // 1.0.0 approved first, then 0.5.0: before this issue, 0.5.0 became what players got. It stays so on upgrade.
      await db.insertInto("releases").values([
        release("g1", "1.0.0", "approved", "2026-01-03T00:00:00.000Z"),
        release("g1", "0.5.0", "approved", "2026-01-04T00:00:00.000Z"),
        release("g1", "2.0.0", "pending_review", null),
        release("g2", "1.0.0", "rejected", "2026-01-03T00:00:00.000Z"),
      ]).execute()

      expect(await migrateToLatest(db, flavor)).toContain("0008_release_lifecycle")

      const games = await db.selectFrom("games").select(["id", "active_version", "first_published_at"]).orderBy("id").execute()
      expect(games.map((g) => [g.id, g.active_version])).toEqual([["g1", "0.5.0"], ["g2", null]])
      expect(new Date(games[0]!.first_published_at!).toISOString()).toBe("2026-01-03T00:00:00.000Z")
      expect(games[1]!.first_published_at).toBeNull()
      const modes = await db.selectFrom("releases").select("publish_mode").distinct().execute()
      expect(modes.map((m) => m.publish_mode)).toEqual(["on_approval"])

      await db.updateTable("releases").set({ status: "taken_down", takedown_reason: "malware" }).where("version", "=", "1.0.0").where("game_id", "=", "g1").execute()
      await db.updateTable("releases").set({ status: "withdrawn" }).where("version", "=", "2.0.0").execute()
      await expect(db.updateTable("releases").set({ status: "bogus" }).where("version", "=", "0.5.0").execute()).rejects.toThrow()
      await expect(sql`SELECT 1`.execute(db)).resolves.toBeDefined()
      expect(await migrateToLatest(db, flavor)).toEqual([])
    })
  })
}
