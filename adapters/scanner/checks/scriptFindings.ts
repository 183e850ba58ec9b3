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
  /**
   * The script stands for data (checks/dataCallScript.ts): what each of its lines is, for the message. Several of
   * its lines and columns stand for one place of the file, which gets one finding per pattern.
   */
  readonly standsFor?: (line: number) => string
  /** The script stands for data of a file without lines (a binary scene): its findings have none. */
  readonly lineless?: true
}

/** Where a hit of the script lands in the file: its position mapped, or none for a script standing for data without lines. */
export const placeOf = (location: ScriptLocation, line: number, column: number): { readonly line: number | null; readonly column: number | null } =>
  location.lineless === true ? { line: null, column: null } : (location.mapPosition?.(line, column) ?? { line, column })

export const hitMessage = (hit: PatternHit, where: string): string =>
  `${hit.matched}${where}: ${hit.entry.rationale}${hit.note === undefined ? "" : ` Flagged because ${hit.note}.`} ${hit.fix ?? hit.entry.fix ?? "Remove it"}; see ${hit.entry.docs} (policy ${hit.entry.id}).`

export const scriptFindings = (hits: ReadonlyArray<PatternHit>, location: ScriptLocation): ReadonlyArray<Finding> => {
  const lines = hits.length === 0 || location.source === undefined ? [] : location.source.split("\n")
  const standsFor = location.standsFor
  return hits.map((hit) => {
    const position = placeOf(location, hit.line, hit.column)
    const where = location.embeddedIn !== undefined ? ` (built-in script ${location.embeddedIn.subResource}, line ${hit.line})` : standsFor !== undefined ? ` (${standsFor(hit.line)})` : ""
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

/** The hits to report: for a script that stands for data, the first of each pattern and severity at each place of the file. */
export const onePerPlace = (hits: ReadonlyArray<PatternHit>, location: ScriptLocation): ReadonlyArray<PatternHit> => {
  if (location.standsFor === undefined) return hits
  const seen = new Set<string>()
  return hits.filter((hit) => {
    const place = placeOf(location, hit.line, hit.column)
    const key = JSON.stringify([hit.entry.pattern, hit.severity, location.lineless === true ? hit.line : [place.line, place.column]])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
