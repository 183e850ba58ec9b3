// The steps before a finalize, for tests about what happens to it: a new game, an upload URL and the PUT.
import { expect } from "vitest"
import { type apiClient, artifact } from "./api.ts"

/** A new game of `creator` named `name`, with a fresh artifact of `sizeBytes` PUT to its upload URL: ready to finalize. */
export const uploadedArtifact = async (api: ReturnType<typeof apiClient>, creator: string, name: string, sizeBytes = 4096) => {
  const gameId: string = (await api.createGame(creator, { name })).body.gameId
  const pck = artifact(sizeBytes)
  const presigned = await api.uploadUrl(creator, gameId, pck.declaration)
  expect((await api.put(presigned.body.uploadUrl, presigned.body.headers, pck.bytes)).status).toBe(200)
  return { gameId, pck }
}
