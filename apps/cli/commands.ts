// The CLI's command table: name → module that runs it. Each module exports `run(argv, io)` returning the exit code.
import type { CliIo } from "./io.ts"

export interface Command {
  readonly summary: string
  readonly run: (argv: ReadonlyArray<string>, io: CliIo) => Promise<number>
}

export const commands: Record<string, () => Promise<Command>> = {
  token: () => import("./commands/token.ts").then((m) => m.command),
}
