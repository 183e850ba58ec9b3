// Browser sessions (adapters/sql/SqlSessionStore.ts). Every statement is idempotent (IF NOT EXISTS): MySQL commits
// each DDL statement on its own, so a start-up killed midway must be able to run this again.
import type { Flavor } from "../flavor.ts"

const mysql = [
  `CREATE TABLE IF NOT EXISTS sessions (
    id VARCHAR(64) NOT NULL,
    user_id VARCHAR(255) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    expires_at DATETIME(3) NOT NULL,
    admin_until DATETIME(3) NULL,
    PRIMARY KEY (id),
    KEY sessions_by_user (user_id, expires_at)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
]

const sqlite = [
  `CREATE TABLE IF NOT EXISTS sessions (
    id TEXT NOT NULL PRIMARY KEY,
    user_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    admin_until TEXT NULL
  ) STRICT`,
  // Ending every session of a user, and forgetting a user's expired ones when they sign in again.
  "CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (user_id, expires_at)",
]

export const sessionsSchema = (flavor: Flavor): ReadonlyArray<string> => (flavor === "mysql" ? mysql : sqlite)
