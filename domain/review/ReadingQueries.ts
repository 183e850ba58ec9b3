// The query strings of a reviewer's reading (issue 15) as Schemas: the HTTP app decodes them before the use cases run
// (adapters/http/routeInput.ts), pages decode theirs with the same Schemas, and the OpenAPI document lists them. Each
// problem reads as the field's name and what is wrong with it (400 invalid_request).
import { Schema, SchemaGetter } from "effect"
import { isValidVersion } from "../release/Version.ts"
import { decodeCursor, encodeCursor } from "./cursor.ts"
import { pathProblem } from "./PackFile.ts"

export const DEFAULT_FILES_LIMIT = 1000
const MAX_FILES_LIMIT = 1000

/** `limit`: 1-1000 as decimal digits, decoded to a number. */
const FilesLimit = Schema.String.pipe(
  Schema.check(Schema.makeFilter(
    (s: string) =>
      /^\d{1,5}$/.test(s) && Number(s) >= 1 && Number(s) <= MAX_FILES_LIMIT
        ? undefined
        : `an integer from 1 to ${MAX_FILES_LIMIT} (got ${JSON.stringify(s.slice(0, 40))})`,
    { expected: `an integer from 1 to ${MAX_FILES_LIMIT}`, toJsonSchema: () => ({ pattern: "^[0-9]{1,5}$" }) },
  )),
  Schema.decodeTo(Schema.Number, { decode: SchemaGetter.transform(Number), encode: SchemaGetter.transform(String) }),
)

/** `cursor`: a listing's `nextCursor`, decoded to the path the next page starts after. */
const FilesCursor = Schema.String.pipe(
  Schema.check(Schema.makeFilter(
    (s: string) =>
      decodeCursor(s) !== null ? undefined : "not a cursor of this listing; pass nextCursor from the previous page exactly, or omit it to start over",
    { expected: "the nextCursor of a previous page" },
  )),
  Schema.decodeTo(Schema.String, { decode: SchemaGetter.transform((s: string) => decodeCursor(s) ?? ""), encode: SchemaGetter.transform(encodeCursor) }),
)

/** GET …/files: `limit` (default 1000) and `cursor`. */
export const FilesQuery = Schema.Struct({ limit: Schema.optionalKey(FilesLimit), cursor: Schema.optionalKey(FilesCursor) }).pipe(
  Schema.brand("FilesQuery"),
)
export type FilesQuery = typeof FilesQuery.Type

/** GET …/file: `path`, the creator's path as /files lists it. */
export const FileQuery = Schema.Struct({
  path: Schema.String.pipe(
    Schema.check(Schema.makeFilter((s: string) => pathProblem(s) ?? undefined, { expected: "a pack path as listed by /files, e.g. res://player.gd" })),
    Schema.annotateKey({ messageMissingKey: pathProblem("") ?? "" }),
  ),
}).pipe(Schema.brand("FileQuery"))
export type FileQuery = typeof FileQuery.Type

/** GET …/diff: `against`, one of the game's versions (the active release when absent). */
export const DiffQuery = Schema.Struct({
  against: Schema.optionalKey(Schema.String.pipe(
    Schema.check(Schema.makeFilter(
      (s: string) =>
        isValidVersion(s)
          ? undefined
          : `${JSON.stringify(s.slice(0, 64))} is not a version; give one of the game's versions, or omit it for the active release`,
      { expected: "a version of the game" },
    )),
  )),
}).pipe(Schema.brand("DiffQuery"))
export type DiffQuery = typeof DiffQuery.Type
