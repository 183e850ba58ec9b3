// Every list query is served by an index (issue 17): EXPLAIN QUERY PLAN on SQLite and EXPLAIN on MariaDB, over a
// store seeded with thousands of games and releases and fresh statistics. A dropped index, or a query rewritten so
// the planner can no longer use it, fails here instead of in a benchmark.
import { Effect, ManagedRuntime } from "effect"
import { CompiledQuery, type Compilable } from "kysely"
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { layerSqlRecords, SqlDatabase, type SqlTarget } from "../../adapters/sql/index.ts"
import { bySlugQuery, catalogPageQuery } from "../../adapters/sql/SqlCatalog.ts"
import { ownerGamesPageQuery, pendingPageQuery } from "../../adapters/sql/SqlPagedLists.ts"
import { recentDecisionsQuery } from "../../adapters/sql/SqlReleaseStore.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { analyze, seedCatalog, seedGameId, seedOwner, seedSlug } from "../support/seedCatalog.ts"

const SEED = { games: 3000, releasesPerGame: 3, pending: 3000, owners: 20 }

interface Plan {
  /** One line per plan step, for the failure message. */
  readonly text: string
  /** The index each table is read through (null: none). */
  readonly indexOf: (table: string) => string | null
  /** A table read in full (every row, in no useful order). */
  readonly fullScan: boolean
  /** The rows are sorted after they are read (the index does not give the order). */
  readonly sorts: boolean
}

const sqlitePlan = (rows: ReadonlyArray<{ detail: string }>): Plan => {
  const details = rows.map((r) => r.detail)
  return {
    text: details.join("\n"),
    indexOf: (table) => {
      const line = details.find((d) => new RegExp(`^(SCAN|SEARCH) ${table}\\b`).test(d) && /INDEX/.test(d))
      if (line !== undefined) return /INDEX (\S+)/.exec(line)![1]!
      // A MULTI-INDEX OR lists its indexes on the lines after it.
      return details.some((d) => d.startsWith("MULTI-INDEX OR")) ? details.filter((d) => /^INDEX \d+$/.test(d) === false && /INDEX \S+/.test(d)).map((d) => /INDEX (\S+)/.exec(d)![1]!).join(" ") || null : null
    },
    fullScan: details.some((d) => /^SCAN \w+( AS \w+)?$/.test(d)),
    sorts: details.some((d) => d.includes("TEMP B-TREE")),
  }
}

const mysqlPlan = (rows: ReadonlyArray<{ table: string; type: string; key: string | null; Extra: string | null }>): Plan => ({
  text: rows.map((r) => `${r.table}: type=${r.type} key=${r.key} extra=${r.Extra}`).join("\n"),
  indexOf: (table) => rows.find((r) => r.table === table)?.key ?? null,
  fullScan: rows.some((r) => r.type === "ALL"),
  sorts: rows.some((r) => (r.Extra ?? "").includes("filesort") || (r.Extra ?? "").includes("temporary")),
})

const ids = { firstPublishedAt: new Date(Date.UTC(2025, 0, 1) + 1500 * 60_000 + 1), gameId: seedGameId(1500) }

// InnoDB's secondary indexes end with the primary key, so on MariaDB the older (status, created_at) and
// (owner_id, created_at) indexes give the same total order as 0010's explicit ones; either serves.
const QUEUE_INDEX = /releases_queue_order|releases_by_status/
const OWNER_INDEX = /games_owner_order|games_by_owner/
/** SQLite names a UNIQUE constraint's index itself. */
const SLUG_INDEX = /games_slug_unique|sqlite_autoindex_games_2/

/** Each list query with the index that must serve it, and whether that index gives the order (no sort step). */
const cases = ({ db, time, dialect }: SqlDatabase["Service"]) => [
  { name: "catalog, first page", query: catalogPageQuery(db, dialect, { after: null, limit: 51, prefix: null }), table: "games", index: /games_catalog_order/, ordered: true },
  { name: "catalog, a later page", query: catalogPageQuery(db, dialect, { after: ids, limit: 51, prefix: null }), table: "games", index: /games_catalog_order/, ordered: true },
  // A search reads its matches through the search indexes (name, slug), then orders those few.
  { name: "catalog search", query: catalogPageQuery(db, dialect, { after: null, limit: 51, prefix: "seed game 12" }), table: "games", index: /games_search_name|games_slug_unique/, ordered: false },
  { name: "catalog search, a later page", query: catalogPageQuery(db, dialect, { after: ids, limit: 51, prefix: "seed-game-12" }), table: "games", index: /games_search_name|games_slug_unique/, ordered: false },
  { name: "game by slug", query: bySlugQuery(db, seedSlug(7)), table: "games", index: SLUG_INDEX, ordered: true },
  { name: "review queue, first page", query: pendingPageQuery(db, time, null, 51), table: "releases", index: QUEUE_INDEX, ordered: true },
  {
    name: "review queue, a later page",
    query: pendingPageQuery(db, time, { createdAt: new Date(Date.UTC(2025, 0, 1) + 10 * 365 * 86_400_000 + 1500 * 1000), gameId: seedGameId(1500), version: "9.0.1500" }, 51),
    table: "releases",
    index: QUEUE_INDEX,
    ordered: true,
  },
  // The queue estimate (issue 16): the last 50 decisions, newest first, from the decision-time index (0011).
  { name: "recent review decisions", query: recentDecisionsQuery(db, 50), table: "releases", index: /releases_by_decision/, ordered: true },
  { name: "my games, first page", query: ownerGamesPageQuery(db, time, seedOwner(3, SEED.owners), null, 51), table: "games", index: OWNER_INDEX, ordered: true },
  {
    name: "my games, a later page",
    query: ownerGamesPageQuery(db, time, seedOwner(3, SEED.owners), { createdAt: new Date(Date.UTC(2025, 0, 1) + 1503 * 60_000), gameId: seedGameId(1503) }, 51),
    table: "games",
    index: OWNER_INDEX,
    ordered: true,
  },
]

const planSuite = (name: string, target: () => Promise<SqlTarget>) =>
  describe(`list query plans: ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<SqlDatabase, unknown>
    let database: SqlDatabase["Service"]
    beforeAll(async () => {
      runtime = ManagedRuntime.make(layerSqlRecords({ target: await target() }))
      database = await runtime.runPromise(SqlDatabase.use(Effect.succeed))
      await seedCatalog(database.db, database.time, SEED)
      await analyze(database.db, database.dialect.name)
    }, 180_000)
    afterAll(() => runtime.dispose())

    const explain = async (query: Compilable<unknown>): Promise<Plan> => {
      const compiled = query.compile()
      const prefix = database.dialect.name === "sqlite" ? "EXPLAIN QUERY PLAN " : "EXPLAIN "
      const { rows } = await database.db.executeQuery(CompiledQuery.raw(prefix + compiled.sql, [...compiled.parameters]))
      return database.dialect.name === "sqlite" ? sqlitePlan(rows as Array<{ detail: string }>) : mysqlPlan(rows as Array<never>)
    }

    test("each list query reads through its index, never a full scan; ordered lists need no sort", async () => {
      for (const c of cases(database)) {
        const plan = await explain(c.query)
        expect(plan.indexOf(c.table) ?? "", `${c.name}:\n${plan.text}`).toMatch(c.index)
        expect(plan.fullScan, `${c.name} scans a whole table:\n${plan.text}`).toBe(false)
        if (c.ordered) expect(plan.sorts, `${c.name} sorts:\n${plan.text}`).toBe(false)
        // The catalog joins each game's active release by primary key.
        if (c.name.startsWith("catalog")) expect(plan.indexOf("releases") ?? "", `${c.name}:\n${plan.text}`).toMatch(/PRIMARY|sqlite_autoindex_releases_1/)
      }
    })

    test("the queries answer what the seed holds (the plans are of working statements)", async () => {
      const [first] = cases(database)
      const rows = (await first!.query.execute()) as Array<{ id: string }>
      expect(rows.slice(0, 2).map((r) => r.id)).toEqual([seedGameId(SEED.games - 1), seedGameId(SEED.games - 2)])
      const search = await catalogPageQuery(database.db, database.dialect, { after: null, limit: 200, prefix: "seed game 12" }).execute()
      expect(search.map((r) => r.id)).toContain(seedGameId(12))
      expect(search.every((r) => r.name.toLowerCase().startsWith("seed game 12"))).toBe(true)
      expect(search.length).toBeGreaterThan(10)
    })
  })

const sqliteDir = mkdtempSync(join(inject("runDir"), "plans-"))
planSuite("SQLite", async () => ({ kind: "sqlite", path: join(sqliteDir, "plans.sqlite") }))
planSuite("MariaDB", async () => ({ kind: "mysql", url: await freshDatabase(inject("mariadbUrl"), "plans") }))
