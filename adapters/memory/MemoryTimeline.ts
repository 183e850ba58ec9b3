import { Effect, Layer } from "effect"
import { Timeline } from "../../ports/Timeline.ts"
import { MemoryTables } from "./MemoryTables.ts"

export const layerMemoryTimeline = Layer.effect(Timeline, MemoryTables.useSync(({ timeline }) =>
  Timeline.of({
    list: (gameId, afterSeq, limit) => Effect.sync(() => timeline.filter((e) => e.gameId === gameId && e.seq > afterSeq).slice(0, limit)),
  })
))
