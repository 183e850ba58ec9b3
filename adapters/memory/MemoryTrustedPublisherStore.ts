import { Effect, Layer } from "effect"
import type { TrustedPublisher } from "../../domain/credentials/TrustedPublisher.ts"
import { TrustedPublisherStore } from "../../ports/TrustedPublisherStore.ts"
import { writeCredentialRecord } from "./memoryCredentialRecord.ts"
import { MemoryTables } from "./MemoryTables.ts"

const oldestFirst = (a: TrustedPublisher, b: TrustedPublisher) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export const layerMemoryTrustedPublisherStore = Layer.effect(TrustedPublisherStore, MemoryTables.useSync((tables) => {
  const publishers: Array<TrustedPublisher> = []
  return TrustedPublisherStore.of({
    add: (publisher, record) =>
      Effect.sync(() => {
        publishers.push(publisher)
        writeCredentialRecord(tables, record)
      }),
    listByGame: (gameId) => Effect.sync(() => publishers.filter((p) => p.gameId === gameId).sort(oldestFirst)),
    remove: (gameId, id, record) =>
      Effect.sync(() => {
        const index = publishers.findIndex((p) => p.gameId === gameId && p.id === id)
        if (index < 0) return false
        publishers.splice(index, 1)
        writeCredentialRecord(tables, record)
        return true
      }),
    findByRepository: (provider, repository) => Effect.sync(() => publishers.filter((p) => p.provider === provider && p.repository === repository).sort(oldestFirst)),
  })
}))
