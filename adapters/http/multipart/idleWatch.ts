// The idle timeout of a body that is read chunk by chunk. Touched once per network chunk (tens of thousands per large
// upload), so a touch only records the time: the one timer re-arms itself for the rest of the period when it finds a
// chunk arrived meanwhile. It runs only while the reader waits for the client: a reader held back by its consumer (a
// slow disk) pauses it, so a slow disk is never blamed on the client.

export interface IdleWatch {
  /** A chunk arrived. */
  readonly touch: () => void
  /** The reader stopped asking for bytes (back-pressure): time spent now is not the client's. */
  readonly pause: () => void
  /** The reader asks for bytes again: the idle period starts over. */
  readonly resume: () => void
  readonly stop: () => void
}

export const idleWatch = (idleMs: number, onIdle: () => void): IdleWatch => {
  let lastChunkAt = performance.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  let running = false
  const check = () => {
    const quiet = performance.now() - lastChunkAt
    if (quiet >= idleMs) {
      running = false
      timer = undefined
      onIdle()
    } else timer = setTimeout(check, idleMs - quiet)
  }
  const pause = () => {
    running = false
    clearTimeout(timer)
    timer = undefined
  }
  return {
    touch: () => void (lastChunkAt = performance.now()),
    pause,
    resume: () => {
      if (running) return
      running = true
      lastChunkAt = performance.now()
      timer = setTimeout(check, idleMs)
    },
    stop: pause,
  }
}
