// The CLI's command table: name → module that runs it. Each module exports `run(argv, io)` returning the exit code.
import type { CliIo } from "./io.ts"

export interface Command {
  readonly summary: string
  readonly run: (argv: ReadonlyArray<string>, io: CliIo) => Promise<number>
}

export const commands: Record<string, () => Promise<Command>> = {
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
}
