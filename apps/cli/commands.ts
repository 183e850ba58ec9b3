// The CLI's command table: name → module that runs it (imported only when that command runs). Each module exports
// `command`, whose `run(argv, io)` returns the exit code.
import type { CliIo } from "./io.ts"

export interface Command {
  readonly run: (argv: ReadonlyArray<string>, io: CliIo) => Promise<number>
}

export const commands = {
  release: () => import("./commands/release.ts").then((m) => m.command),
  submit: () => import("./commands/submit.ts").then((m) => m.command),
  status: () => import("./commands/status.ts").then((m) => m.command),
  wait: () => import("./commands/wait.ts").then((m) => m.command),
  download: () => import("./commands/download.ts").then((m) => m.command),
  review: () => import("./commands/review.ts").then((m) => m.command),
  token: () => import("./commands/token.ts").then((m) => m.command),
  migrate: () => import("./commands/migrate.ts").then((m) => m.command),
  gc: () => import("./commands/gc.ts").then((m) => m.command),
  check: () => import("./commands/check.ts").then((m) => m.command),
  "check-preset": () => import("./commands/checkPreset.ts").then((m) => m.command),
  withdraw: () => import("./commands/withdraw.ts").then((m) => m.command),
  activate: () => import("./commands/activate.ts").then((m) => m.command),
  rollback: () => import("./commands/rollback.ts").then((m) => m.command),
  timeline: () => import("./commands/timeline.ts").then((m) => m.command),
} satisfies Record<string, () => Promise<Command>>

export type CommandName = keyof typeof commands

export const isCommandName = (name: string): name is CommandName => Object.hasOwn(commands, name)

/** One line per command for `pckgate --help`, kept here so the overview loads no command. */
export const SUMMARIES: { readonly [Name in CommandName]: string } = {
  release: "release <file.pck> (--game <id> | --name <name>) --version <v>   check, hash, upload, finalize and verify a release",
  submit: "submit <file.pck> --manifest manifest.json   the multipart path: upload, scan and submit for review in one request",
  status: "status [<gameId>] [--version v]   your games, one game's status and releases, or one release",
  wait: "wait <gameId> --version v --until reviewed|published [--timeout s]   poll until reviewed (0), rejected (1) or timeout (5)",
  download: "download <gameId> --version v [-o file]   download a release and verify its SHA-256",
  review: "review list | show | approve | reject --reason | takedown --reason | reinstate --reason   the review queue, for administrators",
  token: "token --user <id> [--admin]   print a dev-issuer access token (1 hour) for a server using the same DATA_DIR",
  migrate: "migrate [--data-dir <dir>]   apply pending database migrations (the server also does at start-up)",
  gc: "gc [--grace-seconds <n>] [--data-dir <dir>]   delete abandoned uploads and orphaned objects, as the server's sweeper does",
  check: "check <file.pck> [--manifest manifest.json]   check a .pck the way the server's scanner will",
  "check-preset": "check-preset <export_presets.cfg>   validate the export preset against the export requirements",
  withdraw: "withdraw <gameId> <version>   take a pending release of yours out of the review queue",
  activate: "activate <gameId> <version> [--reason …]   make an approved release active (staged go-live or rollback)",
  rollback: "rollback <gameId> --to <version>   make an earlier approved release active again",
  timeline: "timeline <gameId>   who did what, when and why",
}
