// A failure that ends a command: its exit code, the line for stderr, and the fields of the --json result.
import { exitCodeFor, type ExitCode } from "./exitCodes.ts"

export class CliFailure extends Error {
  readonly exitCode: ExitCode
  readonly json: Readonly<Record<string, unknown>>
  constructor(exitCode: ExitCode, message: string, json: Readonly<Record<string, unknown>> = {}) {
    super(message)
    this.exitCode = exitCode
    this.json = json
  }
}

/** `error: <code> — <detail>`, ending the command with the code's row of the exit-code table. */
export const cliError = (code: string, detail: string, extra: Readonly<Record<string, unknown>> = {}, status?: number) =>
  new CliFailure(exitCodeFor(status === undefined ? { code } : { code, status }), `error: ${code} — ${detail}`, { error: code, detail, ...extra })

/** A failure with its own wording (not `error: <code> — …`), still ending with the code's exit code. */
export const cliOutcome = (code: string, message: string, json: Readonly<Record<string, unknown>>) =>
  new CliFailure(exitCodeFor({ code }), message, { error: code, ...json })
