/** Spec §8: artifact size limits, in bytes. */
export const RELEASE_MIN_BYTES = 1024
export const RELEASE_MAX_BYTES = 536_870_912
/** Multipart path: at or under 2 GiB. */
export const MULTIPART_MAX_BYTES = 2_147_483_648
export const ARTIFACT_CONTENT_TYPE = "application/octet-stream"
