import { Effect, Result, Schema, SchemaIssue } from "effect"
import { InvalidRequest } from "./errors.ts"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const problemsOf = (issue: SchemaIssue.Issue) =>
  formatIssues(issue).issues.map((i) => ({
    path: (i.path ?? []).map((p) => String(typeof p === "object" && p !== null && "key" in p ? p.key : p)),
    message: i.message,
  }))

/** Lists every problem as "field: message" so the caller can fix all of them at once. */
export const describeIssues = (issue: SchemaIssue.Issue): ReadonlyArray<string> =>
  problemsOf(issue).map(({ path, message }) => (path.length > 0 ? `${path.join(".")}: ${message}` : `body: ${message}`))

/** The top-level fields an issue names, in the order the Schema checked them. */
export const fieldsOf = (issue: SchemaIssue.Issue): ReadonlyArray<string> => [
  ...new Set(problemsOf(issue).flatMap(({ path }) => (path.length > 0 ? [path[0]!] : []))),
]

/** Decodes untrusted input; unknown extra fields are ignored, every problem is reported. */
export const decodeInput = <S extends Schema.Decoder<unknown>>(schema: S, input: unknown): Effect.Effect<S["Type"], InvalidRequest> => {
  const result = Schema.decodeUnknownResult(schema)(input, { errors: "all", onExcessProperty: "ignore" })
  return Result.isSuccess(result)
    ? Effect.succeed(result.success)
    : Effect.fail(new InvalidRequest({ problems: describeIssues(result.failure.issue) }))
}
