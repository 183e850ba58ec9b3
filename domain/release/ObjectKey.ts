// Content-addressed within the game: nobody can claim another game's bytes by knowing a hash.
// Every object store uses this scheme, so download-url reads the sha256 back from the key.

export const releaseObjectKey = (gameId: string, version: string, sha256: string): string =>
  `releases/${gameId}/${version}/${sha256}.pck`

/**
 * Where a taken-down release's object waits (until reinstated): the same layout under another prefix, so the digest is
 * still read back from the key, and URLs issued for the release's own key stop working the moment it moves.
 */
export const quarantineObjectKey = (gameId: string, version: string, sha256: string): string =>
  `quarantine/${gameId}/${version}/${sha256}.pck`

const KEY_PATTERN = /^(?:releases|quarantine)\/[^/]+\/[^/]+\/([0-9a-f]{64})\.pck$/

export const sha256FromObjectKey = (key: string): string | null => KEY_PATTERN.exec(key)?.[1] ?? null

/** Temporary keys for uploads whose digest is not known yet (multipart path); the sweeper removes stale ones. */
export const TEMP_PREFIX = "tmp/"
export const tempObjectKey = (id: string): string => `${TEMP_PREFIX}${id}`
