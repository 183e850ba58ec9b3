// A short in-process cache in front of ReleaseStore.gameView, download-url's one read, and listActive, the catalog's:
// at thousands of downloads a second, most of them for the same few games, the database otherwise answers the same
// question over and over.
//
// Why a cached answer is safe: what it holds only ever moves forward. A game's owner and slug never change, and its
// active release changes only when a newer release is approved (nothing un-approves or deletes a release). A stale
// entry can therefore only (a) keep handing out the previous active release — already public — or (b) answer 404 for
// a release approved a moment ago. Approvals on this instance drop the entry at once; approvals on another instance
// show here within `ttlMs`. Unknown games are never cached, so a new game is visible everywhere immediately. The same
// holds for the list of every game's active release.
//
// An entry read again after 80% of its life is refreshed in the background, so a game in steady demand never makes a
// request wait for the database; that refresh takes along every other entry read since its own last refresh and past
// half its life, in one query (entries then come due together: a few queries per `ttlMs` however many games are in
// demand, where one each made the database wake up dozens of times a second). A game (or the list) is read by one
// query at a time, however many requests miss together.
import { Deferred, Effect, Exit, Layer, Option } from "effect"
import type { Unavailable } from "../../domain/errors.ts"
import type { Release } from "../../domain/release/Release.ts"
import { type GameReleaseView, ReleaseStore } from "../../ports/ReleaseStore.ts"

export interface GameViewCacheOptions {
  /** How long an entry is served: also how long an approval on another instance may take to show here. 0 disables. */
  readonly ttlMs: number
  /** Entries kept at most; the oldest goes first. */
  readonly maxEntries?: number
  /** Milliseconds on a monotonic clock; tests pass their own. */
  readonly now?: () => number
}

const DEFAULT_MAX_ENTRIES = 10_000
/** Share of an entry's life after which a read also starts a background refresh. */
const REFRESH_AFTER = 0.8
/** Share of its life after which an entry in demand joins a refresh another entry started. */
const JOIN_REFRESH_AFTER = 0.5
/** Entries one refresh reads at most. */
const REFRESH_BATCH = 500

interface Entry {
  readonly view: GameReleaseView
  /** What a hit answers, built once. */
  readonly answer: Effect.Effect<Option.Option<GameReleaseView>>
  readonly readAt: number
  /** Read since it was stored: only entries in demand are refreshed. */
  wanted: boolean
}

const entryOf = (view: GameReleaseView, readAt: number): Entry => ({ view, answer: Effect.succeed(Option.some(view)), readAt, wanted: false })

/**
 * One read per key at a time: whoever asks while a read of the same key is under way waits for its answer instead of
 * asking the store again, so a burst of requests for a game whose entry just expired costs one query, not one per
 * request. Reads run detached: one finishes and answers every waiter even if the request that started it goes away.
 */
const sharedReads = <A>() => {
  const running = new Map<string, Deferred.Deferred<A, Unavailable>>()
  return {
    /** Later callers start a read of their own; those already waiting keep theirs. */
    forget: (key: string) => void running.delete(key),
    /** The answer of the read of `key` under way, or of `start()`, begun now. */
    join: (key: string, start: () => Effect.Effect<A, Unavailable>) =>
      Effect.suspend(() => {
        const underWay = running.get(key)
        if (underWay !== undefined) return Effect.succeed(underWay)
        const answer = Deferred.makeUnsafe<A, Unavailable>()
        running.set(key, answer)
        const settle = (exit: Exit.Exit<A, Unavailable>) =>
          Effect.sync(() => {
            if (running.get(key) === answer) running.delete(key)
            Deferred.doneUnsafe(answer, exit)
          })
        return Effect.as(Effect.forkDetach(Effect.onExit(start(), settle)), answer)
      }),
  }
}

/** Decorates the ReleaseStore it is given (provide one to it) with the cache; every other operation passes through. */
export const layerCachedGameViews = (options: GameViewCacheOptions): Layer.Layer<ReleaseStore, never, ReleaseStore> =>
  Layer.effect(
    ReleaseStore,
    Effect.gen(function*() {
      const store = yield* ReleaseStore
      if (options.ttlMs <= 0) return store
      const now = options.now ?? (() => performance.now())
      const maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_MAX_ENTRIES)
      // In the order stored: the first is the oldest.
      const entries = new Map<string, Entry>()
      const reads = sharedReads<Option.Option<GameReleaseView>>()
      const activeReads = sharedReads<ReadonlyArray<Release>>()
      // Bumped by every review on this instance: a read that began before a review finished must not store what it saw.
      let generation = 0

      /**
       * A read of the store that hands what it answers, with the time of this call, to `keep` — unless a review on this
       * instance happens between this call and the answer (which may then predate it: passed on, not kept). The
       * generation is taken now, not when the read runs: it may run later, on a detached fiber.
       */
      const readThenKeep = <A>(read: Effect.Effect<A, Unavailable>, keep: (answer: A, readAt: number) => void) => {
        const startedAt = generation
        const readAt = now()
        return Effect.tap(read, (answer) =>
          Effect.sync(() => {
            if (generation === startedAt) keep(answer, readAt)
          }))
      }
      const readView = (gameId: string) =>
        readThenKeep(store.gameView(gameId), (view, readAt) => {
          if (Option.isNone(view)) return
          entries.delete(gameId)
          if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!)
          entries.set(gameId, entryOf(view.value, readAt))
        })
      let refreshing = false
      /** One read of the active releases of the entries in demand and past JOIN_REFRESH_AFTER, oldest first. */
      const refreshInBackground = Effect.suspend(() => {
        refreshing = true
        const due: Array<string> = []
        const at = now()
        for (const [gameId, entry] of entries) {
          if (due.length === REFRESH_BATCH) break
          if (entry.wanted && at - entry.readAt >= options.ttlMs * JOIN_REFRESH_AFTER) due.push(gameId)
        }
        const refresh = readThenKeep(store.activeReleasesOf(due), (releases, readAt) => {
          const active = new Map(releases.map((release) => [release.gameId, release]))
          for (const gameId of due) {
            const entry = entries.get(gameId)
            if (entry === undefined || entry.readAt > readAt) continue
            entries.delete(gameId)
            entries.set(gameId, entryOf({ ...entry.view, active: active.get(gameId) ?? null }, readAt))
          }
        })
        return Effect.forkDetach(Effect.ensuring(Effect.ignore(refresh), Effect.sync(() => void (refreshing = false))))
      })
      let activeList: { readonly releases: ReadonlyArray<Release>; readonly readAt: number } | null = null
      const readActiveList = () => readThenKeep(store.listActive(), (releases, readAt) => void (activeList = { releases, readAt }))
      const listActive = Effect.suspend(() => {
        if (activeList !== null && now() - activeList.readAt < options.ttlMs) return Effect.succeed(activeList.releases)
        return Effect.flatMap(activeReads.join("", readActiveList), Deferred.await)
      })
      return ReleaseStore.of({
        ...store,
        gameView: (gameId) =>
          Effect.suspend(() => {
            const hit = entries.get(gameId)
            const age = hit === undefined ? Infinity : now() - hit.readAt
            if (hit === undefined || age >= options.ttlMs) return Effect.flatMap(reads.join(gameId, () => readView(gameId)), Deferred.await)
            hit.wanted = true
            return age >= options.ttlMs * REFRESH_AFTER && !refreshing ? Effect.andThen(refreshInBackground, hit.answer) : hit.answer
          }),
        listActive: () => listActive,
        review: (gameId, version, decision) =>
          Effect.ensuring(
            store.review(gameId, version, decision),
            Effect.sync(() => {
              generation++
              entries.delete(gameId)
              // Reads begun before the review may answer those already waiting on them, but nobody after.
              reads.forget(gameId)
              activeList = null
              activeReads.forget("")
            }),
          ),
      })
    }),
  )
