// Wire shapes of the pack-reading endpoints (issue 15), for the OpenAPI document and the CLI's decoding.
import { Schema } from "effect"
import { PackFileKind } from "../../../domain/review/PackFile.ts"
import { ReviewedFinding } from "./schemas.ts"

/** A finding as these endpoints answer it: as the scan report does (`accepted` null when nobody accepted it), always with `docsUrl`. */
const ReadingFinding = Schema.Struct({ ...ReviewedFinding.fields, docsUrl: Schema.String })

export const ReleaseFiles = Schema.Struct({
  files: Schema.Array(Schema.Struct({
    path: Schema.String,
    storedPath: Schema.optionalKey(Schema.String),
    embeddedIn: Schema.optionalKey(Schema.String),
    sizeBytes: Schema.Int,
    kind: PackFileKind,
    sha256: Schema.String,
    findingCount: Schema.Int,
  })),
  nextCursor: Schema.NullOr(Schema.String),
})

export const ReleaseFile = Schema.Struct({
  path: Schema.String,
  kind: PackFileKind,
  sizeBytes: Schema.Int,
  text: Schema.NullOr(Schema.String),
  truncated: Schema.Boolean,
  head: Schema.optionalKey(Schema.String),
  findings: Schema.Array(ReadingFinding),
})

export const ReleaseDiff = Schema.Struct({
  against: Schema.NullOr(Schema.String),
  files: Schema.Array(Schema.Struct({
    path: Schema.String,
    change: Schema.Literals(["added", "removed", "modified"]),
    kind: PackFileKind,
    unified: Schema.optionalKey(Schema.String),
    truncated: Schema.optionalKey(Schema.Boolean),
  })),
  capabilities: Schema.Struct({ added: Schema.Array(Schema.String), removed: Schema.Array(Schema.String) }),
  findings: Schema.Struct({ new: Schema.Array(ReadingFinding), carried: Schema.Array(ReadingFinding), fixed: Schema.Array(ReadingFinding) }),
})
