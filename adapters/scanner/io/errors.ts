// Two kinds of failure inside the reader, kept apart on purpose:
// - MalformedData: the bytes are wrong (truncated, hostile, unsupported). It becomes a finding.
// - SourceFailure: the byte source itself failed (disk, GCS). It becomes `Unavailable` and no report.

export class MalformedData extends Error {
  override readonly name = "MalformedData"
}

export class SourceFailure extends Error {
  override readonly name = "SourceFailure"
  readonly original: unknown
  constructor(message: string, original: unknown) {
    super(message)
    this.original = original
  }
}

/** The error's message; never empty (an error without one is named by its tag or class). */
export const describeError = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error)
  if (message !== "") return message
  const tag = (error as { readonly _tag?: unknown } | null)?._tag
  return typeof tag === "string" ? tag : error instanceof Error ? error.name : "unknown failure"
}
