// The webhook outbox (adapters/sql/SqlNotificationOutbox.ts). Every statement is idempotent (IF NOT EXISTS): MySQL
// commits each DDL statement on its own, so a start-up killed midway must be able to run this again.
import type { Flavor } from "../flavor.ts"

const mysql = [
  `CREATE TABLE IF NOT EXISTS notification_outbox (
    id VARCHAR(64) NOT NULL,
    dedupe_key VARCHAR(255) NOT NULL,
    type VARCHAR(64) NOT NULL,
    body MEDIUMTEXT NOT NULL,
    created_at DATETIME(3) NOT NULL,
    status VARCHAR(16) NOT NULL,
    attempts INT NOT NULL,
    next_attempt_at DATETIME(3) NOT NULL,
    lease VARCHAR(64) NULL,
    leased_until DATETIME(3) NULL,
    last_error VARCHAR(500) NULL,
    finished_at DATETIME(3) NULL,
    PRIMARY KEY (id),
    CONSTRAINT notification_outbox_dedupe_key UNIQUE (dedupe_key),
    KEY notification_outbox_due (status, next_attempt_at),
    CONSTRAINT notification_outbox_status CHECK (status IN ('pending', 'delivered', 'abandoned')),
    CONSTRAINT notification_outbox_attempts CHECK (attempts >= 0)
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
]

const sqlite = [
  `CREATE TABLE IF NOT EXISTS notification_outbox (
    id TEXT NOT NULL PRIMARY KEY,
    dedupe_key TEXT NOT NULL CONSTRAINT notification_outbox_dedupe_key UNIQUE,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'abandoned')),
    attempts INTEGER NOT NULL CHECK (attempts >= 0),
    next_attempt_at TEXT NOT NULL,
    lease TEXT NULL,
    leased_until TEXT NULL,
    last_error TEXT NULL,
    finished_at TEXT NULL
  ) STRICT`,
  // What a dispatcher polls for: pending deliveries by due time.
  "CREATE INDEX IF NOT EXISTS notification_outbox_due ON notification_outbox (status, next_attempt_at)",
]

export const notificationOutboxSchema = (flavor: Flavor): ReadonlyArray<string> => (flavor === "mysql" ? mysql : sqlite)
