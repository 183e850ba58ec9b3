// Where a command writes. Tests pass their own; main.ts passes the process streams.
export interface CliIo {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stderrIsTty: boolean
}
