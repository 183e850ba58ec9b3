// A decorator over SqlDatabase for fault tests: the finalize transaction holds forever at a named point, so a test
// can SIGKILL the server there (a crash at a known instant, not after a guessed sleep). Only the fault server
// (faultServer.ts) provides it; apps/server knows nothing of it.
import { Effect, Layer } from "effect"
import { SqlDatabase } from "../../adapters/sql/index.ts"
import { FINALIZE_RELEASE } from "../../adapters/sql/SqlReleaseStore.ts"

/** Where the finalize transaction holds: with its writes done but not committed, or just after the commit. */
export const PAUSE_POINTS = ["finalize:before-commit", "finalize:after-commit"] as const
export type PausePoint = (typeof PAUSE_POINTS)[number]

/** The fault server's environment variable naming the point; it prints `paused at <point>` on stderr on arrival. */
export const PAUSE_VARIABLE = "PCKGATE_TEST_PAUSE_AT"

export const pausePointFrom = (env: Readonly<Record<string, string | undefined>>): PausePoint => {
  const wanted = env[PAUSE_VARIABLE]
  const point = PAUSE_POINTS.find((p) => p === wanted)
  if (point === undefined) throw new Error(`${PAUSE_VARIABLE} must be one of ${PAUSE_POINTS.join(", ")} (got ${String(wanted)})`)
  return point
}

const holdForever = (point: PausePoint) =>
  Effect.sync(() => process.stderr.write(`[${PAUSE_VARIABLE}] paused at ${point}\n`)).pipe(Effect.andThen(Effect.never))

export const layerPausingDatabase = (point: PausePoint) =>
  Layer.effect(
    SqlDatabase,
    Effect.gen(function*() {
      const database = yield* SqlDatabase
      return SqlDatabase.of({
        ...database,
        transaction: (operation, body) => {
          if (operation !== FINALIZE_RELEASE) return database.transaction(operation, body)
          return point === "finalize:before-commit"
            ? database.transaction(operation, (tx) => Effect.tap(body(tx), () => holdForever(point)))
            : Effect.tap(database.transaction(operation, body), () => holdForever(point))
        },
      })
    }),
  )
