// The change feed (adapters/sql/SqlChangeFeed.ts): one row per announced change, and one head row holding the newest
// sequence. Every statement is idempotent (IF NOT EXISTS, INSERT IGNORE): MySQL commits each DDL statement on its own,
// so a start-up killed midway must be able to run this again.
import type { Flavor } from "../flavor.ts"

const mysql = [
  `CREATE TABLE IF NOT EXISTS change_feed (
    seq BIGINT NOT NULL,
    game_id VARCHAR(64) NOT NULL,
    kind VARCHAR(32) NOT NULL,
    at DATETIME(3) NOT NULL,
    PRIMARY KEY (seq),
    KEY change_feed_by_time (at)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
  `CREATE TABLE IF NOT EXISTS change_feed_head (
    id INT NOT NULL,
    seq BIGINT NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT change_feed_head_one_row CHECK (id = 1)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
  "INSERT IGNORE INTO change_feed_head (id, seq) VALUES (1, 0)",
]

const sqlite = [
  `CREATE TABLE IF NOT EXISTS change_feed (
    seq INTEGER NOT NULL PRIMARY KEY,
    game_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    at TEXT NOT NULL
  ) STRICT`,
  // What pruning deletes by.
  "CREATE INDEX IF NOT EXISTS change_feed_by_time ON change_feed (at)",
  `CREATE TABLE IF NOT EXISTS change_feed_head (
    id INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL
  ) STRICT`,
  "INSERT OR IGNORE INTO change_feed_head (id, seq) VALUES (1, 0)",
]

export const changeFeedSchema = (flavor: Flavor): ReadonlyArray<string> => (flavor === "mysql" ? mysql : sqlite)
