// Each release's entries with their SHA-256 (issue 15: computed on the first file listing or diff, kept with the
// release, which never changes). One row per release holding the sorted list as JSON. Idempotent like the others.
import type { Flavor } from "../flavor.ts"

const mysql = [
  `CREATE TABLE IF NOT EXISTS release_entries (
    game_id VARCHAR(64) NOT NULL,
    version VARCHAR(32) NOT NULL,
    entries LONGTEXT NOT NULL,
    computed_at DATETIME(3) NOT NULL,
    PRIMARY KEY (game_id, version),
    CONSTRAINT release_entries_release FOREIGN KEY (game_id, version) REFERENCES releases (game_id, version)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
]

const sqlite = [
  `CREATE TABLE IF NOT EXISTS release_entries (
    game_id TEXT NOT NULL,
    version TEXT NOT NULL,
    entries TEXT NOT NULL,
    computed_at TEXT NOT NULL,
    PRIMARY KEY (game_id, version),
    FOREIGN KEY (game_id, version) REFERENCES releases (game_id, version)
  )`,
]

export const releaseEntriesSchema = (flavor: Flavor): ReadonlyArray<string> => (flavor === "mysql" ? mysql : sqlite)
