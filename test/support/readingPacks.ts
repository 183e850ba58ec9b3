// The packs godot3-server exported for the pack-reading tests (test/setup/godot.ts, `reading-<version>`), shipped to a
// running server as a creator would: upload-url, PUT, finalize, then the background scan.
import { readFileSync } from "node:fs"
import { fixturePackPath } from "../setup/godot.ts"
import { apiClient } from "./api.ts"
import { sha256Hex } from "./streams.ts"

/** The exported pack `reading-<version>`'s bytes. */
export const readingPackBytes = (fixtures: string, version: string): Uint8Array =>
  new Uint8Array(readFileSync(fixturePackPath(fixtures, `reading-${version}`)))

/** Uploads `reading-<version>` as `version` of `gameId` for `owner`, and waits until its background scan has run. */
export const shipReadingPack = async (baseUrl: string, fixtures: string, owner: string, gameId: string, version: string): Promise<void> => {
  const api = apiClient(baseUrl)
  const bytes = readingPackBytes(fixtures, version)
  const finalized = await api.uploadRelease(owner, gameId, { bytes, declaration: { version, sha256: sha256Hex(bytes), sizeBytes: bytes.length } })
  if (finalized.status !== 201) throw new Error(`finalize of ${version} answered ${finalized.status}: ${JSON.stringify(finalized.body)}`)
  await api.scanned(owner, gameId, version, 30_000)
}
