import { Effect, Schema } from "effect"
import { decodeInput } from "../decode.ts"
import { ArtifactTooLarge } from "../errors.ts"
import { ARTIFACT_CONTENT_TYPE, RELEASE_MAX_BYTES, RELEASE_MIN_BYTES } from "./Limits.ts"
import { DEFAULT_PUBLISH_MODE, PublishMode, type UploadDeclaration } from "./Release.ts"
import { Sha256 } from "./Sha256.ts"
import { Version } from "./Version.ts"

/** Body of upload-url and finalize (spec §4.2, §4.4). The upper size bound is checked apart: it answers 413, not 400. */
export const DeclarationBody = Schema.Struct({
  version: Version,
  sha256: Sha256,
  sizeBytes: Schema.Finite.pipe(
    Schema.check(
      Schema.makeFilter((n: number) => Number.isInteger(n) && n >= RELEASE_MIN_BYTES, {
        expected: `an integer number of bytes, at least ${RELEASE_MIN_BYTES}`,
        toJsonSchema: () => ({ multipleOf: 1, minimum: RELEASE_MIN_BYTES }),
      }),
    ),
  ),
  contentType: Schema.optionalKey(Schema.Literal(ARTIFACT_CONTENT_TYPE)),
  /** `manual` keeps the release inactive after approval until `activate` (issue 16); part of the declaration. */
  publish: Schema.optionalKey(PublishMode),
})

export const decodeDeclaration = Effect.fnUntraced(function*(gameId: string, body: unknown) {
  const input = yield* decodeInput(DeclarationBody, body)
  if (input.sizeBytes > RELEASE_MAX_BYTES) {
    return yield* new ArtifactTooLarge({ sizeBytes: input.sizeBytes, limitBytes: RELEASE_MAX_BYTES })
  }
  return {
    gameId,
    version: input.version,
    sha256: input.sha256,
    sizeBytes: input.sizeBytes,
    contentType: input.contentType ?? ARTIFACT_CONTENT_TYPE,
    publishMode: input.publish ?? DEFAULT_PUBLISH_MODE,
  } satisfies UploadDeclaration
})
