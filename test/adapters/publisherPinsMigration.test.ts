// Migration 0013 on a database that already holds trusted publishers: each gets its case-insensitive lookup key and
// no pinned ids; the store then finds it whatever the case asked. A row that an instance predating 0013 writes (no
// key) is still found by its exact repository. On MariaDB, running it again (a start-up killed before the migration
// was recorded) changes nothing.
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { type Kysely, sql } from "kysely"
import { afterAll, describe, expect, inject, it } from "vitest"
import { layerSqlRecords, type SqlTarget } from "../../adapters/sql/index.ts"
import { migrateToLatest, migrateUpTo } from "../../adapters/sql/migrate.ts"
import { openMysql, parseMysqlUrl } from "../../adapters/sql/mysql.ts"
import type { Tables } from "../../adapters/sql/schema.ts"
import { openSqlite } from "../../adapters/sql/sqlite.ts"
import { TrustedPublisherStore } from "../../ports/TrustedPublisherStore.ts"
import { freshDatabase } from "../setup/mariadb.ts"

const opened: Array<Kysely<Tables>> = []
afterAll(async () => {
  for (const db of opened) await db.destroy()
})

const databases = {
  SQLite: async () => {
    const path = join(mkdtempSync(join(inject("runDir"), "mig-0013-")), "old.sqlite")
    return { db: openSqlite(path), flavor: "sqlite" as const, target: { kind: "sqlite", path } as SqlTarget }
  },
  MariaDB: async () => {
    const url = await freshDatabase(inject("mariadbUrl"), "publisher_pins")
    const target = parseMysqlUrl(url)
    if ("error" in target) throw new Error(target.error)
    return { db: await openMysql(target), flavor: "mysql" as const, target: { kind: "mysql", url } as SqlTarget }
  },
}

for (const [name, open] of Object.entries(databases)) {
  describe(`migration 0013 on ${name}`, () => {
    it("keys existing publishers by their repository in lowercase, pins nothing, and the store finds them in any case", async () => {
      const { db, flavor, target } = await open()
      opened.push(db)
      await migrateUpTo(db, flavor, "0012_multipart_scan_counts")
      const time = (iso: string) => (flavor === "mysql" ? new Date(iso) : iso)
      const at = time("2026-01-01T00:00:00.000Z")
      await db.insertInto("games").values({ id: "g1", name: "g1", slug: "g1", kind: "engine", owner_id: "alice", manifest_id: null, search_name: "g1", created_at: at, updated_at: at })
        .execute()
      // Before 0013: the columns of 0009 only.
      const publisher = (id: string, repository: string) =>
        sql`INSERT INTO trusted_publishers (id, game_id, provider, repository, workflow, environment, ref, created_by, created_at)
          VALUES (${id}, 'g1', 'github', ${repository}, '.github/workflows/release.yml', NULL, NULL, 'alice', ${at})`.execute(db)
      await publisher("tp_old", "Octo-Org/Space-Game")

      expect(await migrateToLatest(db, flavor)).toEqual(["0013_publisher_pins"])
      const rows = await sql<{ id: string; repository_key: string; repository_id: string | null; repository_owner_id: string | null }>`
        SELECT id, repository_key, repository_id, repository_owner_id FROM trusted_publishers`.execute(db)
      expect(rows.rows).toEqual([{ id: "tp_old", repository_key: "octo-org/space-game", repository_id: null, repository_owner_id: null }])

      // An instance that predates 0013 adds a publisher: no key (the column's default ''), found by its exact name only.
      await publisher("tp_older_instance", "Octo-Org/Other-Game")
      const find = (repository: string) =>
        Effect.runPromise(TrustedPublisherStore.use((s) => s.findByRepository("github", repository)).pipe(Effect.provide(layerSqlRecords({ target }))))
      for (const asked of ["Octo-Org/Space-Game", "octo-org/space-game", "OCTO-ORG/SPACE-GAME"]) {
        expect((await find(asked)).map((p) => [p.id, p.repository, p.repositoryId, p.repositoryOwnerId]), asked).toEqual([["tp_old", "Octo-Org/Space-Game", null, null]])
      }
      expect((await find("Octo-Org/Other-Game")).map((p) => p.id)).toEqual(["tp_older_instance"])

      if (flavor === "mysql") {
        await sql`DELETE FROM kysely_migration WHERE name = '0013_publisher_pins'`.execute(db)
        expect(await migrateToLatest(db, flavor)).toEqual(["0013_publisher_pins"])
        const again = await sql<{ id: string; repository_key: string }>`SELECT id, repository_key FROM trusted_publishers ORDER BY id`.execute(db)
        // The second run also keys the row the older instance wrote.
        expect(again.rows).toEqual([{ id: "tp_old", repository_key: "octo-org/space-game" }, { id: "tp_older_instance", repository_key: "octo-org/other-game" }])
      }
      expect(await migrateToLatest(db, flavor)).toEqual([])
    })
  })
}
