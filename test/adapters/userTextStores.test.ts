// Text from users through the HTTP app on the SQL stores: what SQLite and MariaDB keep is the validated NFC text
// (a lone surrogate would otherwise have become U+FFFD in the database).
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { inject } from "vitest"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { userTextSuite } from "../support/userTextSuite.ts"

userTextSuite("SQLite", {
  runs: 25,
  records: async () => layerSqlRecords({ target: { kind: "sqlite", path: join(mkdtempSync(join(inject("runDir"), "user-text-")), "records.sqlite") } }),
})
userTextSuite("MariaDB", {
  runs: 25,
  records: async () => layerSqlRecords({ target: { kind: "mysql", url: await freshDatabase(inject("mariadbUrl"), "user_text") } }),
})
