// What every step of `release` works with. Each step is safe to run again: it finds its work done and goes on, so
// running the same command after an interruption resumes where it stopped.
import type { Client } from "../client.ts"
import type { CliIo } from "../io.ts"

export interface ReleaseRun {
  readonly io: CliIo
  readonly client: Client
  /** The file as the user typed it (for messages) and its absolute path. */
  readonly file: string
  readonly path: string
  readonly version: string
  readonly json: boolean
  /** Sleep through a 429 and retry instead of ending with exit 4. */
  readonly waitOnRateLimit: boolean
}

/** What the release API is told: the version, and the digest and size computed locally. */
export interface Declaration {
  readonly version: string
  readonly sha256: string
  readonly sizeBytes: number
}

export const releasesPath = (gameId: string) => `/api/games/${encodeURIComponent(gameId)}/releases`
