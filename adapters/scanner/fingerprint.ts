// Finding fingerprints (issue 15): the same finding in two versions of a pack shares one, even when unrelated lines
// moved, so a reviewer's acceptance carries over and diffs can say which findings are new, carried or fixed.
// Identity is the rule, the file and the flagged line's text with its whitespace collapsed (the line number is left
// out on purpose), plus an occurrence index among findings with the same three; a finding about a whole file (or one
// whose line text the scanner never read) uses its pattern instead of the text.
import type { Finding } from "../../domain/scan/Finding.ts"
import { createSha256 } from "../memory/sha256.ts"

/** The text of the line each finding flags, recorded where the finding is made (the source is at hand only there). */
const flaggedLines = new WeakMap<Finding, string>()

export const rememberFlaggedLine = (finding: Finding, lineText: string): Finding => {
  flaggedLines.set(finding, lineText)
  return finding
}

const normalised = (text: string): string => text.replace(/\s+/gu, " ").trim()

const digest = (parts: ReadonlyArray<string>): string => {
  const hash = createSha256()
  hash.update(new TextEncoder().encode(JSON.stringify(parts)))
  return `fp_${hash.digestHex().slice(0, 32)}`
}

/** Fingerprints of findings in report order: the occurrence index counts equal (rule, file, text) triples in that order. */
export const withFingerprints = (findings: ReadonlyArray<Finding>): ReadonlyArray<Finding> => {
  const seen = new Map<string, number>()
  return findings.map((finding) => {
    const line = flaggedLines.get(finding)
    const text = finding.line === null || line === undefined ? `pattern:${finding.pattern}` : `line:${normalised(line)}`
    const identity = JSON.stringify([finding.rule, finding.file, text])
    const occurrence = seen.get(identity) ?? 0
    seen.set(identity, occurrence + 1)
    return { ...finding, fingerprint: digest([finding.rule, finding.file, text, String(occurrence)]) }
  })
}
