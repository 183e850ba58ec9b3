import type { Finding } from "../../domain/scan/Finding.ts"

/**
 * A finding as the CLI prints it: `file:line rule message (docs: …)`, the docs page the service answers as `docsUrl`
 * (an older service answers none: then the rule id).
 */
export const findingLine = (f: Finding & { readonly docsUrl?: string }): string =>
  `${f.line === null ? f.file : `${f.file}:${f.line}`} ${f.rule} ${f.message} (docs: ${f.docsUrl ?? f.rule})`
