// Starting the fault server (faultServer.ts) paused at a point of finalize, and waiting for it to get there.
import { PAUSE_VARIABLE, type PausePoint } from "./pausingDatabase.ts"
import { type RunningServer, type StartOptions, startServer } from "./server.ts"

export type { PausePoint } from "./pausingDatabase.ts"

export const FAULT_SERVER_ENTRY = "test/support/faultServer.ts"

/** The server as `npm start` runs it, holding forever at `point` of the first finalize. */
export const startPausedServer = (point: PausePoint, options: StartOptions = {}): Promise<RunningServer> =>
  startServer({ ...options, entry: FAULT_SERVER_ENTRY, env: { ...options.env, [PAUSE_VARIABLE]: point } })

/** Resolves once the server printed that it holds at `point`; fails if it exits first. */
export const untilPaused = async (server: RunningServer, point: PausePoint): Promise<void> => {
  const marker = `paused at ${point}`
  while (!server.output().includes(marker)) {
    if (server.process.exitCode !== null) throw new Error(`server exited before ${point}:\n${server.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
