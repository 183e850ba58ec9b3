// Where a command writes. Tests pass their own; main.ts passes the process streams.
export interface CliIo {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stderrIsTty: boolean
}

/** Exit codes, documented in the README. */
export const EXIT = {
  ok: 0,
  rejectedOrFindings: 1,
  cannotRun: 2,
  serviceFailure: 3,
  rateLimited: 4,
  stillWaiting: 5,
} as const
