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

/**
 * A declaration checked whole: its fields decoded and its size within the limit. requestUploadUrl and finalizeRelease
 * take one; `decodeDeclaration` makes one from a JSON body, answering each problem as the API does.
 */
export const Declaration = DeclarationBody.pipe(
  Schema.check(
    Schema.makeFilter((d: { readonly sizeBytes: number }) => d.sizeBytes <= RELEASE_MAX_BYTES, {
      expected: `at most ${RELEASE_MAX_BYTES} bytes`,
    }),
  ),
  Schema.brand("Declaration"),
)
export type Declaration = typeof Declaration.Type

/** upload-url's and finalize's body: 400 naming every bad field, then 413 for a size above the limit. */
export const decodeDeclaration = Effect.fnUntraced(function*(body: unknown) {
  const input = yield* decodeInput(DeclarationBody, body)
  if (input.sizeBytes > RELEASE_MAX_BYTES) {
    return yield* new ArtifactTooLarge({ sizeBytes: input.sizeBytes, limitBytes: RELEASE_MAX_BYTES })
  }
  return Declaration.make(input)
})

/** What upload-url records for one game and finalize must match, with the defaults filled in. */
export const uploadDeclaration = (gameId: string, declaration: Declaration) =>
  ({
    gameId,
    version: declaration.version,
    sha256: declaration.sha256,
    sizeBytes: declaration.sizeBytes,
    contentType: declaration.contentType ?? ARTIFACT_CONTENT_TYPE,
    publishMode: declaration.publish ?? DEFAULT_PUBLISH_MODE,
  }) satisfies UploadDeclaration
