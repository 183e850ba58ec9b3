import type { EmbeddedIn, Finding, Severity } from "../../domain/scan/Finding.ts"
import type { RuleId } from "../../domain/scan/RuleId.ts"

/** `file` of findings about the container as a whole (header, directory), which no creator path names. */
export const PACK_ITSELF = "(pack)"

export interface FindingInput {
  readonly rule: RuleId
  readonly file: string
  readonly pattern: string
  readonly message: string
  readonly severity?: Severity
  readonly line?: number | null
  readonly column?: number | null
  readonly storedPath?: string | undefined
  readonly embeddedIn?: EmbeddedIn | undefined
}

export const finding = (input: FindingInput): Finding => ({
  file: input.file,
  line: input.line ?? null,
  column: input.column ?? null,
  rule: input.rule,
  pattern: input.pattern,
  message: input.message,
  severity: input.severity ?? "error",
  ...(input.storedPath !== undefined && input.storedPath !== input.file ? { storedPath: input.storedPath } : {}),
  ...(input.embeddedIn !== undefined ? { embeddedIn: input.embeddedIn } : {}),
})
