// Receives a multipart submission (spec §4.6) as one pipeline over its parts: the `pck` part is streamed into object
// storage under a temporary key and hashed on the way; the `manifest` part (a JSON file or a text field) is decoded
// the moment it arrives, once, so a bad manifest sent first is refused before the package is read. Every failure is a
// domain error, and nothing of a refused or broken upload is kept: the temporary object is removed once its write has
// stopped (a write is never abandoned while it runs: a broken body makes it fail, and its failure is awaited).
import type { PublishMode } from "../../../domain/release/Release.ts"
import { Effect, Stream } from "effect"
import {
  ArtifactTooLarge,
  InsufficientStorage,
  InvalidManifest,
  InvalidRequest,
  MissingPck,
  NotAPckFile,
  Unavailable,
} from "../../../domain/errors.ts"
import { MULTIPART_MAX_BYTES } from "../../../domain/release/Limits.ts"
import { tempObjectKey } from "../../../domain/release/ObjectKey.ts"
import { parseManifest, parsePublishMode, type ReceivedUpload, type SubmittedManifest } from "../../../domain/submission/SubmitPackage.ts"
import { Ids } from "../../../ports/Ids.ts"
import { ObjectStorage } from "../../../ports/ObjectStorage.ts"
import { Sha256Hasher } from "../../../ports/Sha256Hasher.ts"
import type { NodeBodyOptions } from "../nodeBody.ts"
import { type FilePart, type MultipartBody, multipartBody, type Part } from "./multipartParts.ts"

export interface SubmissionLimits {
  /** Largest accepted `pck` part, inclusive. */
  readonly maxPckBytes: number
  readonly maxManifestBytes: number
  /** Abort when no bytes arrive for this long. */
  readonly idleTimeoutMs: number
  /** Abort when the whole body takes longer than this. */
  readonly deadlineMs: number
}

export const DEFAULT_SUBMISSION_LIMITS: SubmissionLimits = {
  maxPckBytes: MULTIPART_MAX_BYTES,
  maxManifestBytes: 64 * 1024,
  idleTimeoutMs: 60_000,
  deadlineMs: 2 * 3600_000,
}

type StoredPck = ReceivedUpload["pck"]

/** What the parts gave so far. */
interface Received {
  readonly pck: StoredPck | null
  readonly manifest: SubmittedManifest | null
  readonly publishMode?: PublishMode
}

const manifestTooLarge = (limits: SubmissionLimits) =>
  new InvalidManifest({ fields: ["manifest"], problem: `The manifest part is larger than ${limits.maxManifestBytes} bytes.` })

const PCK_NAME = /\.pck$/i

/** The `pck` part into storage at `tempKey`, hashed on the way; the storage's failures as the submission's. */
const storePck = Effect.fnUntraced(function*(part: FilePart, tempKey: string, body: MultipartBody, limits: SubmissionLimits) {
  const storage = yield* ObjectStorage
  const hash = (yield* Sha256Hasher).create()
  let sizeBytes = 0
  const bytes = part.stream((chunk) => {
    hash.update(chunk)
    sizeBytes += chunk.length
  })
  // Hashed on the way in and only sampled by the scanner afterwards: no reason to pass it through a cache.
  yield* storage.put(tempKey, bytes, { maxBytes: limits.maxPckBytes, bypassCache: true }).pipe(
    Effect.catchTags({
      ObjectTooLarge: () => Effect.fail(new ArtifactTooLarge({ sizeBytes: limits.maxPckBytes + 1, limitBytes: limits.maxPckBytes })),
      // The write saw its input break off: the body says why (a timeout, the client gone, a malformed body).
      UploadAborted: () => body.whyStopped,
      StorageFull: () => Effect.fail(new InsufficientStorage({})),
      ObjectExists: () => Effect.fail(new Unavailable({ dependency: "storage", reason: `the temporary key ${tempKey} was taken` })),
    }),
  )
  return { key: tempKey, sha256: hash.digestHex(), sizeBytes } satisfies StoredPck
})

const takePart = Effect.fnUntraced(function*(received: Received, part: Part, tempKey: string, body: MultipartBody, limits: SubmissionLimits) {
  if (part.name === "manifest") {
    const text = part._tag === "Field"
      ? (part.truncated ? "too_large" : part.value)
      : yield* part.text(limits.maxManifestBytes)
    if (text === "too_large") return yield* manifestTooLarge(limits)
    return { ...received, manifest: yield* parseManifest(text) }
  }
  if (part._tag === "Field" && part.name === "publish") return { ...received, publishMode: yield* parsePublishMode(part.value) }
  if (part._tag === "Field") return received
  if (part.name !== "pck") {
    yield* part.skip
    return received
  }
  if (received.pck !== null) return yield* new InvalidRequest({ problems: ["body: more than one 'pck' part"] })
  if (!PCK_NAME.test(part.filename)) return yield* new NotAPckFile({ filename: part.filename })
  return { ...received, pck: yield* storePck(part, tempKey, body, limits) }
})

/**
 * Reads the request's multipart body: the package stored under a fresh temporary key (the caller moves or removes it)
 * and the decoded manifest. Fails with the first problem in the order the parts arrive; a body without a `pck` part
 * is MissingPck before a missing manifest is InvalidManifest.
 */
export const receiveSubmission = Effect.fn("receiveSubmission")(function*(
  request: Request,
  limits: SubmissionLimits,
  options: NodeBodyOptions = {},
) {
  const tempKey = tempObjectKey(yield* (yield* Ids).next("up"))
  const body = multipartBody(request, {
    // One byte more than the limit reaches the storage write, which then refuses the package as too large.
    maxFileBytes: limits.maxPckBytes + 1,
    maxFieldBytes: limits.maxManifestBytes + 1,
    idleTimeoutMs: limits.idleTimeoutMs,
    deadlineMs: limits.deadlineMs,
  }, options)
  return yield* Effect.gen(function*() {
    const received = yield* Stream.runFoldEffect(
      body.parts,
      (): Received => ({ pck: null, manifest: null }),
      (got, part) => takePart(got, part, tempKey, body, limits),
    )
    if (received.pck === null) return yield* new MissingPck({})
    const manifest = received.manifest ?? (yield* parseManifest(null))
    return { pck: received.pck, manifest, ...(received.publishMode ? { publishMode: received.publishMode } : {}) } satisfies ReceivedUpload
  }).pipe(Effect.onError(() => ObjectStorage.use((storage) => storage.delete(tempKey)).pipe(Effect.ignore)))
})
