import { Effect, Layer, Option } from "effect"
import { type ApiKey, apiKeyIsLive } from "../../domain/credentials/ApiKey.ts"
import { ApiKeyStore } from "../../ports/ApiKeyStore.ts"
import { writeCredentialRecord } from "./memoryCredentialRecord.ts"
import { MemoryTables } from "./MemoryTables.ts"

export const layerMemoryApiKeyStore = Layer.effect(ApiKeyStore, MemoryTables.useSync((tables) => {
  const keys = new Map<string, ApiKey>()
  return ApiKeyStore.of({
    // The count and the insert in one synchronous step: concurrent creations cannot pass the limit together.
    create: (key, limit, record) =>
      Effect.sync(() => {
        const live = [...keys.values()].filter((k) => k.ownerId === key.ownerId && apiKeyIsLive(k, key.createdAt))
        if (live.length >= limit) return false
        keys.set(key.id, key)
        writeCredentialRecord(tables, record)
        return true
      }),
    findByHash: (keyHash) => Effect.sync(() => Option.fromNullishOr([...keys.values()].find((key) => key.keyHash === keyHash))),
    listByOwner: (ownerId) =>
      Effect.sync(() =>
        [...keys.values()].filter((key) => key.ownerId === ownerId).sort((a, b) =>
          b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)
        )
      ),
    revoke: (ownerId, id, at, record) =>
      Effect.sync(() => {
        const key = keys.get(id)
        if (key === undefined || key.ownerId !== ownerId || key.revokedAt !== null) return false
        keys.set(id, { ...key, revokedAt: at })
        writeCredentialRecord(tables, record)
        return true
      }),
    touch: (id, at, unlessSince) =>
      Effect.sync(() => {
        const key = keys.get(id)
        if (key === undefined || (key.lastUsedAt !== null && key.lastUsedAt.getTime() >= unlessSince.getTime())) return
        keys.set(id, { ...key, lastUsedAt: at })
      }),
  })
}))
