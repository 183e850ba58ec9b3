// The unique keys of the schema (migrations/), by the name a unique violation reports on MySQL. SQLite reports the
// columns instead ("UNIQUE constraint failed: games.slug"), so its dialect maps them back with `columns`.

export interface UniqueKey {
  readonly name: string
  /** As SQLite lists them in its message: `table.column`, joined by ", ". */
  readonly columns: string
}

/** Every table's primary key: MySQL calls each "PRIMARY"; SQLite reports SQLITE_CONSTRAINT_PRIMARYKEY. */
export const PRIMARY_KEY = "PRIMARY"

export const UNIQUE_KEYS = {
  gameSlug: { name: "games_slug_unique", columns: "games.slug" },
  gameManifestId: { name: "games_manifest_id_unique", columns: "games.manifest_id" },
  intentDeclaration: {
    name: "upload_intents_declaration_unique",
    columns: "upload_intents.game_id, upload_intents.version, upload_intents.sha256, upload_intents.size_bytes, upload_intents.content_type",
  },
  submissionPerRelease: { name: "submissions_one_per_release", columns: "submissions.game_id, submissions.version" },
  outboxDedupeKey: { name: "notification_outbox_dedupe_key", columns: "notification_outbox.dedupe_key" },
} as const satisfies Record<string, UniqueKey>
