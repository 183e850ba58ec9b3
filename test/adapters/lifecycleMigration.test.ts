// Migration 0008 on a database that already holds releases: every game keeps the release players got before.
// Migration 0011 on a database with lifecycle history: every active pointer gets the reason the timeline gives it.
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { type Kysely, sql } from "kysely"
import { afterAll, describe, expect, inject, it } from "vitest"
import { migrateToLatest, migrateUpTo } from "../../adapters/sql/migrate.ts"
import { openMysql, parseMysqlUrl } from "../../adapters/sql/mysql.ts"
import type { Tables } from "../../adapters/sql/schema.ts"
import { mysqlDialect } from "../../adapters/sql/dialects/mysql.ts"
import { sqliteDialect } from "../../adapters/sql/dialects/sqlite.ts"
import { gameFromRow } from "../../adapters/sql/rows.ts"
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

  describe(`migration 0011 on ${name}`, () => {
    it("gives each active pointer its reason: the latest activation the timeline recorded, else its approval", async () => {
      const { db, flavor } = await open()
      opened.push(db)
      await migrateUpTo(db, flavor, "0010_catalog")
      const time = (iso: string) => (flavor === "mysql" ? new Date(iso) : iso)
      const game = (id: string, active: string | null) => ({
        id, name: id, slug: id, kind: "engine", owner_id: "alice", manifest_id: null, search_name: id, active_version: active,
        created_at: time("2026-01-01T00:00:00.000Z"), updated_at: time("2026-01-01T00:00:00.000Z"),
      })
      await db.insertInto("games").values([game("h1", "1.0.0"), game("h2", "1.0.0"), game("h3", "2.0.0"), game("h4", null)]).execute()
      const release = (gameId: string, version: string, status: string) => ({
        game_id: gameId, version, sha256: "a".repeat(64), size_bytes: 2048, content_type: "application/octet-stream",
        object_key: `releases/${gameId}/${version}/${"a".repeat(64)}.pck`, source: "release_api", status, created_by: "alice",
        created_at: time("2026-01-02T00:00:00.000Z"), reviewed_by: "root", reviewed_at: time("2026-01-03T00:00:00.000Z"), rejection_reason: null,
      })
      await db.insertInto("releases").values([
        release("h1", "1.0.0", "approved"),
        release("h2", "1.0.0", "approved"),
        release("h2", "2.0.0", "approved"),
        release("h3", "1.0.0", "approved"),
        release("h3", "2.0.0", "approved"),
        release("h3", "3.0.0", "taken_down"),
      ]).execute()
      const event = (gameId: string, version: string, kind: string, actor: string, at: string, reason: string | null = null) =>
        ({ game_id: gameId, version, kind, actor, reason, at: time(at) })
      await db.insertInto("release_timeline").values([
        // h1: approved and activated in one step (0008's timeline): the approval.
        event("h1", "1.0.0", "approved", "user:root", "2026-01-03T00:00:00.000Z"),
        event("h1", "1.0.0", "activated", "user:root", "2026-01-03T00:00:00.000Z"),
        // h2: rolled back to 1.0.0 by the owner later.
        event("h2", "1.0.0", "activated", "user:alice", "2026-01-05T00:00:00.000Z", "rollback"),
        // h3: 3.0.0 was taken down; the pointer fell back to 2.0.0.
        event("h3", "2.0.0", "activated", "user:root", "2026-01-06T00:00:00.000Z", "the active release was taken down"),
      ]).execute()

      expect(await migrateToLatest(db, flavor)).toContain("0011_lifecycle_records")

      const rows = await db.selectFrom("games").select(["id", "active_cause", "active_by", "active_since"]).orderBy("id").execute()
      expect(rows.map((r) => [r.id, r.active_cause, r.active_by, r.active_since === null ? null : new Date(r.active_since).toISOString()])).toEqual([
        ["h1", "approval", "user:root", "2026-01-03T00:00:00.000Z"],
        ["h2", "activation", "user:alice", "2026-01-05T00:00:00.000Z"],
        ["h3", "takedown_fallback", "user:root", "2026-01-06T00:00:00.000Z"],
        ["h4", null, null, null],
      ])
      // An instance that predates 0011 moves h1's pointer without a reason: the old reason is not shown for 1.0.0 → 2.0.0.
      const dialect = flavor === "mysql" ? mysqlDialect : sqliteDialect
      const readH1 = async () => gameFromRow(await db.selectFrom("games").selectAll().where("id", "=", "h1").executeTakeFirstOrThrow(), dialect.time).activeReason
      expect(await readH1()).toEqual({ cause: "approval", actor: "user:root", at: new Date("2026-01-03T00:00:00.000Z") })
      await db.updateTable("games").set({ active_version: "2.0.0" }).where("id", "=", "h1").execute()
      expect(await readH1()).toBeNull()
      const scopes = await db.selectFrom("releases").select("takedown_scope").distinct().execute()
      expect(scopes.map((r) => r.takedown_scope)).toEqual([null])
      expect(await migrateToLatest(db, flavor)).toEqual([])
    })
  })
}
