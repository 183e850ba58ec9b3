import { Effect, Layer, Option } from "effect"
import { repositoryKey, type TrustedPublisher } from "../../domain/credentials/TrustedPublisher.ts"
import { TrustedPublisherStore } from "../../ports/TrustedPublisherStore.ts"
import { writeCredentialRecord } from "./memoryCredentialRecord.ts"
import { MemoryTables } from "./MemoryTables.ts"

const oldestFirst = (a: TrustedPublisher, b: TrustedPublisher) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export const layerMemoryTrustedPublisherStore = Layer.effect(TrustedPublisherStore, MemoryTables.useSync((tables) => {
  const publishers: Array<TrustedPublisher> = []
  const ofGame = (gameId: string) => publishers.filter((p) => p.gameId === gameId)
  return TrustedPublisherStore.of({
    // The count and the insert in one synchronous step: concurrent adds cannot pass the limit together.
    add: (publisher, limit, record) =>
      Effect.sync(() => {
        if (ofGame(publisher.gameId).length >= limit) return false
        publishers.push(publisher)
        writeCredentialRecord(tables, record)
        return true
      }),
    listByGame: (gameId) => Effect.sync(() => ofGame(gameId).sort(oldestFirst)),
    remove: (gameId, id, record) =>
      Effect.sync(() => {
        const index = publishers.findIndex((p) => p.gameId === gameId && p.id === id)
        if (index < 0) return false
        publishers.splice(index, 1)
        writeCredentialRecord(tables, record)
        return true
      }),
    findByRepository: (provider, repository) =>
      Effect.sync(() => publishers.filter((p) => p.provider === provider && repositoryKey(p.repository) === repositoryKey(repository)).sort(oldestFirst)),
    pinIds: (id, ids) =>
      Effect.sync(() => {
        const index = publishers.findIndex((p) => p.id === id)
        if (index < 0) return Option.none()
        const current = publishers[index]!
        const pinned = { ...current, repositoryId: current.repositoryId ?? ids.repositoryId, repositoryOwnerId: current.repositoryOwnerId ?? ids.repositoryOwnerId }
        publishers[index] = pinned
        return Option.some(pinned)
      }),
  })
}))
