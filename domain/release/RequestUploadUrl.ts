import { actorOf } from "../auth/Actor.ts"
import { Effect } from "effect"
import { Clock } from "../../ports/Clock.ts"
import { Ids } from "../../ports/Ids.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import type { Principal } from "../auth/Principal.ts"
import { withBudget } from "../budget/withBudget.ts"
import { Policy } from "../Policy.ts"
import { type Declaration, uploadDeclaration } from "./Declaration.ts"
import { releaseObjectKey } from "./ObjectKey.ts"
import { ownedEngineGameWithFreeVersion } from "./ownedEngineGame.ts"

const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000)

/** POST /api/games/{gameId}/releases/upload-url: records the intent and returns a presigned, write-once PUT (spec §4.2). */
export const requestUploadUrl = Effect.fn("requestUploadUrl")(function*(principal: Principal, gameId: string, declared: Declaration) {
  const declaration = uploadDeclaration(gameId, declared)
  yield* ownedEngineGameWithFreeVersion(principal, gameId, declaration.version)
  return yield* withBudget(
    "upload_url",
    principal.userId,
    Effect.gen(function*() {
      const policy = yield* Policy
      const now = yield* (yield* Clock).now
      const objectKey = releaseObjectKey(gameId, declaration.version, declaration.sha256)
      const presigned = yield* (yield* ObjectStorage).presignPut(objectKey, {
        sizeBytes: declaration.sizeBytes,
        now,
        expiresInSeconds: policy.uploadUrlTtlSeconds,
      })
      const id = yield* (yield* Ids).next("ui")
      yield* (yield* ReleaseStore).recordIntent({
        ...declaration,
        id,
        objectKey,
        createdBy: principal.userId,
        createdAt: now,
        expiresAt: addSeconds(now, policy.intentTtlSeconds),
      }, actorOf(principal))
      return { uploadUrl: presigned.url, headers: presigned.headers, expiresAt: presigned.expiresAt }
    }),
  )
})
