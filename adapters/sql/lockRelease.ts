import type { Kysely } from "kysely"
import type { Dialect } from "./dialects/Dialect.ts"
import type { Tables } from "./schema.ts"

/**
 * Inside a write transaction: holds the release's row until the commit, so a review decision and a claim of the same
 * release never interleave. SQLite's write transactions are serial already (begin immediate).
 */
export const lockRelease = async (trx: Kysely<Tables>, dialect: Dialect, gameId: string, version: string): Promise<void> => {
  if (!dialect.locksRowsForUpdate) return
  await trx.selectFrom("releases").select("status").where("game_id", "=", gameId).where("version", "=", version).forUpdate().execute()
}
