import type { Finding } from "../../domain/scan/Finding.ts"
import { terminalText } from "./terminalText.ts"

/**
 * A finding as the CLI prints it: `file:line rule message (docs: …)`, the docs page the service answers as `docsUrl`
 * (an older service answers none: then the rule id). Paths and messages quote the pack: hidden characters are marked.
 */
export const findingLine = (f: Finding & { readonly docsUrl?: string }): string =>
  terminalText(`${f.line === null ? f.file : `${f.file}:${f.line}`} ${f.rule} ${f.message} (docs: ${f.docsUrl ?? f.rule})`)
