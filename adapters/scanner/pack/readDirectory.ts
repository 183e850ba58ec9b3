import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding, PACK_ITSELF } from "../findings.ts"
import { ByteCursor, decodeUtf8 } from "../io/ByteCursor.ts"
import { MalformedData } from "../io/errors.ts"
import type { RandomAccess } from "../io/RandomAccess.ts"
import { normalisePackPath } from "./packPath.ts"
import type { PackDirectory, PackEntry, PackHeader } from "./PackLayout.ts"

/** More entries than any real game needs; the cap keeps a 2 GB pack of empty names from costing gigabytes of objects. */
export const MAX_ENTRIES = 200_000
/** Longer stored paths are hostile: no file system accepts them and they only cost memory. */
export const MAX_PATH_BYTES = 4096

export interface DirectoryResult {
  readonly directory: PackDirectory
  readonly findings: ReadonlyArray<Finding>
}

/**
 * Reads file_count and the entries. file_count and every path length are checked against the bytes
 * left in the file before anything is allocated; a directory that is cut short keeps the entries
 * read so far and adds a finding.
 */
export const readDirectory = async (source: RandomAccess, header: PackHeader): Promise<DirectoryResult> => {
  const findings: Array<Finding> = []
  const c = new ByteCursor(source, header.directoryStart, 4096, 1024 * 1024)
  const declaredCount = await c.u32()
  const entries: Array<PackEntry> = []
  const withFlags = header.format >= 2
  const fixedBytes = 4 + 8 + 8 + 16 + (withFlags ? 4 : 0)
  const done = (): DirectoryResult => ({ directory: { header, declaredCount, entries, directoryEnd: c.position }, findings })

  if (declaredCount > MAX_ENTRIES) {
    findings.push(
      finding({
        rule: RULE.directoryTooLarge,
        file: PACK_ITSELF,
        pattern: "file_count",
        message: `The directory declares ${declaredCount} entries; the scanner reviews packs of at most ${MAX_ENTRIES}. Split the content or contact the operator.`,
      }),
    )
    return done()
  }
  if (declaredCount * fixedBytes > c.remaining) {
    findings.push(
      finding({
        rule: RULE.truncated,
        file: PACK_ITSELF,
        pattern: "file_count",
        message: `The directory declares ${declaredCount} entries, which need at least ${declaredCount * fixedBytes} bytes, but only ${c.remaining} bytes follow; the pack is truncated or its directory is forged.`,
      }),
    )
    return done()
  }
  try {
    for (let index = 0; index < declaredCount; index++) {
      const pathLength = await c.u32()
      if (pathLength > MAX_PATH_BYTES || pathLength + fixedBytes - 4 > c.remaining) {
        findings.push(
          finding({
            rule: pathLength > MAX_PATH_BYTES ? RULE.hostilePath : RULE.truncated,
            file: PACK_ITSELF,
            pattern: "path length",
            message: `Directory entry ${index} declares a ${pathLength}-byte path${pathLength > MAX_PATH_BYTES ? ` (limit ${MAX_PATH_BYTES})` : `, but only ${c.remaining} bytes remain`}; the rest of the directory cannot be read.`,
          }),
        )
        return done()
      }
      const rawPath = decodeUtf8(await c.bytes(pathLength)).replace(/\0+$/, "")
      const offset = await c.u64()
      const size = await c.u64()
      const md5 = (await c.bytes(16)).slice()
      const flags = withFlags ? await c.u32() : 0
      entries.push({
        index,
        rawPath,
        path: normalisePackPath(rawPath),
        dataOffset: header.dataBase + offset,
        size,
        md5,
        flags,
        readable: true,
      })
    }
  } catch (error) {
    if (!(error instanceof MalformedData)) throw error
    findings.push(
      finding({
        rule: RULE.truncated,
        file: PACK_ITSELF,
        pattern: "directory",
        message: `The directory ends after ${entries.length} of ${declaredCount} entries (${error.message}); the pack is truncated.`,
      }),
    )
  }
  return done()
}
