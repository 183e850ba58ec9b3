import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { Md5, toHex } from "../io/md5.ts"
import { readExactly } from "../io/RandomAccess.ts"
import type { PackContents } from "../PackContents.ts"
import type { PackEntry } from "../pack/PackLayout.ts"

const CHUNK = 1024 * 1024

export interface ChecksumResult {
  readonly entry: PackEntry
  /** null when the directory records no MD5 (all zero: PCKPacker output, removal entries). */
  readonly recorded: string | null
  readonly actual: string
}

/** MD5 of every readable entry's bytes next to the one the directory records. Reads the entries in full. */
export const computeChecksums = async (contents: PackContents): Promise<ReadonlyArray<ChecksumResult>> => {
  const results: Array<ChecksumResult> = []
  for (const entry of contents.entries) {
    if (!entry.readable) continue
    const md5 = new Md5()
    for (let at = 0; at < entry.size; at += CHUNK) {
      md5.update(await readExactly(contents.source, entry.dataOffset + at, Math.min(CHUNK, entry.size - at)))
    }
    const recorded = entry.md5.every((b) => b === 0) ? null : toHex(entry.md5)
    results.push({ entry, recorded, actual: toHex(md5.digest()) })
  }
  return results
}

/** Opt-in integrity check: a mismatch means the pack was altered after export, or is damaged. */
export const verifyChecksums = async (contents: PackContents): Promise<ReadonlyArray<Finding>> =>
  (await computeChecksums(contents))
    .filter((r) => r.recorded !== null && r.recorded !== r.actual)
    .map((r) =>
      finding({
        rule: RULE.checksumMismatch,
        file: contents.creatorPath(r.entry),
        storedPath: r.entry.path,
        pattern: "md5",
        message: `The bytes of ${r.entry.path} have MD5 ${r.actual}, but the directory records ${r.recorded}: the pack was altered after export or is damaged. Export it again.`,
      }),
    )
