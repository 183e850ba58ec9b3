// V4 signed URLs for direct uploads to and downloads from the bucket. With a key file the signature is computed
// locally; without one the library calls IAM signBlob. Any failure to sign is the signer's (→ 502 upload_url_failed).
import type { File } from "@google-cloud/storage"
import { Effect } from "effect"
import type { Unavailable } from "../../domain/errors.ts"
import type { PresignedGet, PresignedPut } from "../../ports/ObjectStorage.ts"
import { signerUnavailable } from "./gcsFailures.ts"
import { within } from "./gcsStreams.ts"

/**
 * The two headers a PUT must send verbatim; both are signed. GCS's XML API ignores `if-none-match` on uploads, so the
 * write-once precondition is its own: generation 0 = "only if no object exists" (412 otherwise).
 */
export const GCS_PUT_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/octet-stream",
  "x-goog-if-generation-match": "0",
}

/** `attachment; filename="…"` with a name that needs no quoting rules. */
export const attachmentDisposition = (name: string) => `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, "_")}"`

const sign = (file: File, config: Parameters<File["getSignedUrl"]>[0], signMs: number) =>
  Effect.tryPromise({
    try: () => within(file.getSignedUrl(config).then(([url]) => url), signMs, "GCS URL signing"),
    catch: signerUnavailable,
  })

interface Lifetime {
  readonly now: Date
  readonly expiresInSeconds: number
}

// The signature's X-Goog-Date is `now` (to the second) and X-Goog-Expires exactly `expiresInSeconds`.
const validity = ({ now, expiresInSeconds }: Lifetime) => ({
  accessibleAt: now,
  expires: new Date(now.getTime() + expiresInSeconds * 1000),
})

export const presignPut = (file: File, lifetime: Lifetime, signMs: number): Effect.Effect<PresignedPut, Unavailable> => {
  const { accessibleAt, expires } = validity(lifetime)
  return sign(file, {
    version: "v4",
    action: "write",
    accessibleAt,
    expires,
    contentType: GCS_PUT_HEADERS["content-type"]!,
    extensionHeaders: { "x-goog-if-generation-match": GCS_PUT_HEADERS["x-goog-if-generation-match"]! },
  }, signMs).pipe(Effect.map((url) => ({ url, headers: { ...GCS_PUT_HEADERS }, expiresAt: expires })))
}

export const presignGet = (
  file: File,
  lifetime: Lifetime & { readonly downloadName?: string },
  signMs: number,
): Effect.Effect<PresignedGet, Unavailable> => {
  const { accessibleAt, expires } = validity(lifetime)
  return sign(file, {
    version: "v4",
    action: "read",
    accessibleAt,
    expires,
    // A response parameter: signed as part of the query, so it cannot be altered.
    ...(lifetime.downloadName === undefined ? {} : { responseDisposition: attachmentDisposition(lifetime.downloadName) }),
  }, signMs).pipe(Effect.map((url) => ({ url, expiresAt: expires })))
}
