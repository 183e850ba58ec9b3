// API keys and trusted publishers (issue 18). Numbered 0009 so the migrations of parallel work (0006-0008) apply
// first. Idempotent (IF NOT EXISTS): MySQL commits each DDL statement on its own, so a start-up killed midway must be
// able to run this again. Lists of games and scopes are JSON text: they are read with their key and never queried.
import type { Flavor } from "../flavor.ts"

const mysql = [
  `CREATE TABLE IF NOT EXISTS api_keys (
    id VARCHAR(64) NOT NULL,
    owner_id VARCHAR(255) NOT NULL,
    name VARCHAR(400) NOT NULL,
    prefix VARCHAR(32) NOT NULL,
    key_hash CHAR(64) NOT NULL,
    games TEXT NOT NULL,
    scopes VARCHAR(200) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    expires_at DATETIME(3) NULL,
    revoked_at DATETIME(3) NULL,
    last_used_at DATETIME(3) NULL,
    PRIMARY KEY (id),
    UNIQUE KEY api_keys_key_hash (key_hash),
    KEY api_keys_by_owner (owner_id, created_at)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
  `CREATE TABLE IF NOT EXISTS trusted_publishers (
    id VARCHAR(64) NOT NULL,
    game_id VARCHAR(64) NOT NULL,
    provider VARCHAR(16) NOT NULL,
    repository VARCHAR(255) NOT NULL,
    workflow VARCHAR(255) NOT NULL,
    environment VARCHAR(255) NULL,
    ref VARCHAR(255) NULL,
    created_by VARCHAR(255) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    PRIMARY KEY (id),
    KEY trusted_publishers_by_game (game_id, created_at),
    KEY trusted_publishers_by_repository (provider, repository),
    CONSTRAINT trusted_publishers_game FOREIGN KEY (game_id) REFERENCES games (id)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
]

const sqlite = [
  `CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT NOT NULL PRIMARY KEY,
    owner_id TEXT NOT NULL,
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    games TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NULL,
    revoked_at TEXT NULL,
    last_used_at TEXT NULL
  ) STRICT`,
  "CREATE INDEX IF NOT EXISTS api_keys_by_owner ON api_keys (owner_id, created_at)",
  `CREATE TABLE IF NOT EXISTS trusted_publishers (
    id TEXT NOT NULL PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games (id),
    provider TEXT NOT NULL,
    repository TEXT NOT NULL,
    workflow TEXT NOT NULL,
    environment TEXT NULL,
    ref TEXT NULL,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT`,
  "CREATE INDEX IF NOT EXISTS trusted_publishers_by_game ON trusted_publishers (game_id, created_at)",
  "CREATE INDEX IF NOT EXISTS trusted_publishers_by_repository ON trusted_publishers (provider, repository)",
]

export const credentialsSchema = (flavor: Flavor): ReadonlyArray<string> => (flavor === "mysql" ? mysql : sqlite)
