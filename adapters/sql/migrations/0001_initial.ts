// Games, releases, upload intents and budget spends. Every statement is idempotent (IF NOT EXISTS): MySQL commits
// each DDL statement on its own, so a start-up killed midway must be able to run this again.
import type { Flavor } from "../flavor.ts"

const MYSQL_TABLE = "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"

const mysql = [
  `CREATE TABLE IF NOT EXISTS games (
    id VARCHAR(64) NOT NULL,
    name VARCHAR(80) NOT NULL,
    slug VARCHAR(64) NOT NULL,
    kind VARCHAR(32) NOT NULL,
    owner_id VARCHAR(255) NOT NULL,
    manifest_id VARCHAR(255) NULL,
    created_at DATETIME(3) NOT NULL,
    updated_at DATETIME(3) NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT games_slug_unique UNIQUE (slug),
    KEY games_by_owner (owner_id, created_at)
  ) ${MYSQL_TABLE}`,
  `CREATE TABLE IF NOT EXISTS releases (
    game_id VARCHAR(64) NOT NULL,
    version VARCHAR(32) NOT NULL,
    sha256 CHAR(64) NOT NULL,
    size_bytes BIGINT NOT NULL,
    content_type VARCHAR(255) NOT NULL,
    object_key VARCHAR(512) NOT NULL,
    source VARCHAR(16) NOT NULL,
    status VARCHAR(16) NOT NULL,
    created_by VARCHAR(255) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    reviewed_by VARCHAR(255) NULL,
    reviewed_at DATETIME(3) NULL,
    rejection_reason TEXT NULL,
    PRIMARY KEY (game_id, version),
    KEY releases_by_status (status, created_at),
    KEY releases_by_object_key (object_key),
    KEY releases_active (game_id, status, reviewed_at, created_at, version),
    CONSTRAINT releases_game FOREIGN KEY (game_id) REFERENCES games (id),
    CONSTRAINT releases_status CHECK (status IN ('pending_review', 'approved', 'rejected')),
    CONSTRAINT releases_size CHECK (size_bytes > 0)
  ) ${MYSQL_TABLE}`,
  `CREATE TABLE IF NOT EXISTS upload_intents (
    id VARCHAR(64) NOT NULL,
    game_id VARCHAR(64) NOT NULL,
    version VARCHAR(32) NOT NULL,
    sha256 CHAR(64) NOT NULL,
    size_bytes BIGINT NOT NULL,
    content_type VARCHAR(255) NOT NULL,
    object_key VARCHAR(512) NOT NULL,
    created_by VARCHAR(255) NOT NULL,
    created_at DATETIME(3) NOT NULL,
    expires_at DATETIME(3) NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT upload_intents_declaration_unique UNIQUE (game_id, version, sha256, size_bytes, content_type),
    KEY upload_intents_by_expiry (expires_at),
    KEY upload_intents_by_object_key (object_key),
    CONSTRAINT upload_intents_game FOREIGN KEY (game_id) REFERENCES games (id)
  ) ${MYSQL_TABLE}`,
  `CREATE TABLE IF NOT EXISTS budget_accounts (
    account_id VARCHAR(255) NOT NULL,
    endpoint VARCHAR(32) NOT NULL,
    PRIMARY KEY (account_id, endpoint)
  ) ${MYSQL_TABLE}`,
  `CREATE TABLE IF NOT EXISTS budget_spends (
    id VARCHAR(64) NOT NULL,
    account_id VARCHAR(255) NOT NULL,
    endpoint VARCHAR(32) NOT NULL,
    spent_at DATETIME(3) NOT NULL,
    PRIMARY KEY (id),
    KEY budget_spends_by_account (account_id, endpoint, spent_at)
  ) ${MYSQL_TABLE}`,
]

// STRICT tables: SQLite refuses values of the wrong type instead of storing them anyway.
const sqlite = [
  `CREATE TABLE IF NOT EXISTS games (
    id TEXT NOT NULL PRIMARY KEY,
    name TEXT NOT NULL,
    slug TEXT NOT NULL CONSTRAINT games_slug_unique UNIQUE,
    kind TEXT NOT NULL,
    owner_id TEXT NOT NULL,
    manifest_id TEXT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`,
  "CREATE INDEX IF NOT EXISTS games_by_owner ON games (owner_id, created_at)",
  `CREATE TABLE IF NOT EXISTS releases (
    game_id TEXT NOT NULL REFERENCES games (id),
    version TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size_bytes INTEGER NOT NULL CHECK (size_bytes > 0),
    content_type TEXT NOT NULL,
    object_key TEXT NOT NULL,
    source TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending_review', 'approved', 'rejected')),
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    reviewed_by TEXT NULL,
    reviewed_at TEXT NULL,
    rejection_reason TEXT NULL,
    PRIMARY KEY (game_id, version)
  ) STRICT`,
  "CREATE INDEX IF NOT EXISTS releases_by_status ON releases (status, created_at)",
  "CREATE INDEX IF NOT EXISTS releases_by_object_key ON releases (object_key)",
  // A game's active release (newest approval) without scanning every approved release of every game.
  "CREATE INDEX IF NOT EXISTS releases_active ON releases (game_id, status, reviewed_at, created_at, version)",
  `CREATE TABLE IF NOT EXISTS upload_intents (
    id TEXT NOT NULL PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games (id),
    version TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size_bytes INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    object_key TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    CONSTRAINT upload_intents_declaration_unique UNIQUE (game_id, version, sha256, size_bytes, content_type)
  ) STRICT`,
  "CREATE INDEX IF NOT EXISTS upload_intents_by_expiry ON upload_intents (expires_at)",
  "CREATE INDEX IF NOT EXISTS upload_intents_by_object_key ON upload_intents (object_key)",
  `CREATE TABLE IF NOT EXISTS budget_spends (
    id TEXT NOT NULL PRIMARY KEY,
    account_id TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    spent_at TEXT NOT NULL
  ) STRICT`,
  "CREATE INDEX IF NOT EXISTS budget_spends_by_account ON budget_spends (account_id, endpoint, spent_at)",
]

export const initialSchema = (flavor: Flavor): ReadonlyArray<string> => (flavor === "mysql" ? mysql : sqlite)
