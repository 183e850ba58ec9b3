import type { EmbeddedIn, Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { rememberFlaggedLine } from "../fingerprint.ts"
import type { PatternHit } from "../gdscript/PolicyIndex.ts"

/** Where a script's text lives, so each hit points at the line a reviewer would open. */
export interface ScriptLocation {
  /** Creator path of the file to open: the `.gd`, or the scene holding a built-in script. */
  readonly file: string
  readonly storedPath?: string
  /** Set for built-in scripts of binary scenes, whose lines count inside the script. */
  readonly embeddedIn?: EmbeddedIn
  /** Maps a script (line, column) to the file's, for built-in scripts of text scenes. */
  readonly mapPosition?: (line: number, column: number) => { readonly line: number; readonly column: number }
  /** The script's text, whose lines the hits count in (for fingerprints). */
  readonly source?: string
}

export const hitMessage = (hit: PatternHit, where: string): string =>
  `${hit.matched}${where}: ${hit.entry.rationale}${hit.note === undefined ? "" : ` Flagged because ${hit.note}.`} ${hit.fix ?? hit.entry.fix ?? "Remove it"}; see ${hit.entry.docs} (policy ${hit.entry.id}).`

export const scriptFindings = (hits: ReadonlyArray<PatternHit>, location: ScriptLocation): ReadonlyArray<Finding> => {
  const lines = hits.length === 0 || location.source === undefined ? [] : location.source.split("\n")
  return hits.map((hit) => {
    const position = location.mapPosition?.(hit.line, hit.column) ?? { line: hit.line, column: hit.column }
    const where = location.embeddedIn === undefined ? "" : ` (built-in script ${location.embeddedIn.subResource}, line ${hit.line})`
    const made = finding({
      rule: RULE.bannedApi,
      file: location.file,
      line: position.line,
      column: position.column,
      pattern: hit.entry.pattern,
      message: hitMessage(hit, where),
      severity: hit.severity,
      storedPath: location.storedPath,
      embeddedIn: location.embeddedIn,
    })
    const lineText = lines[hit.line - 1]
    return lineText === undefined ? made : rememberFlaggedLine(made, lineText)
  })
}
