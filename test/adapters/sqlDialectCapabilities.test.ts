// The SQL stores ask their dialect for what they need (adapters/sql/dialects/Dialect.ts: locksRowsForUpdate,
// upsert, …), never for its name: a store that tests `dialect.name` would go wrong on a dialect that shares a
// capability under another name. Only the migrations pick by name (their DDL differs as a whole).
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { REPO_ROOT } from "../support/server.ts"

const SQL = join(REPO_ROOT, "adapters", "sql")
const stores = readdirSync(SQL).filter((name) => name.endsWith(".ts") && name !== "SqlDatabase.ts" && name !== "migrate.ts")

test("the SQL stores have sources to check", () => {
  expect(stores).toContain("SqlTrustedPublisherStore.ts")
})

test.each(stores)("%s branches on the dialect's capabilities, never on its name", (name) => {
  expect(readFileSync(join(SQL, name), "utf8")).not.toMatch(/dialect\.name\b/)
})
