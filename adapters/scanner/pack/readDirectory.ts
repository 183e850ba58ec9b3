import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding, PACK_ITSELF } from "../findings.ts"
import { ByteCursor } from "../io/ByteCursor.ts"
import { MalformedData } from "../io/errors.ts"
import type { RandomAccess } from "../io/RandomAccess.ts"
import { decodeGodot3Utf8, decodeGodot4Utf8, strictUtf8Problem } from "../text/godotUtf8.ts"
import { erasedReason, normalisePackPath, unreachableReason } from "./packPath.ts"
import type { PackDirectory, PackEntry, PackHeader } from "./PackLayout.ts"

/** More entries than any real game needs; the cap keeps a 2 GB pack of empty names from costing gigabytes of objects. */
export const MAX_ENTRIES = 200_000
/** Longer stored paths are hostile: no file system accepts them and they only cost memory. */
export const MAX_PATH_BYTES = 4096

/**
 * An entry's name as the engine reads it (PackedSourcePCK::try_open_pack: String::parse_utf8 of the
 * stored bytes, so up to the first NUL, a byte-order mark skipped; Godot 3 reads packs of format 1 and
 * keeps the name empty where it refuses the bytes, Godot 4 reads the others), and what is wrong with the
 * stored bytes: a NUL before the padding, or bytes that are not strict UTF-8 (`payload.g E0 81 A4` is
 * `payload.gd` for Godot 3, a second copy of that file under a name that does not look like it).
 */
export const entryName = (bytes: Uint8Array, format: number): { readonly name: string; readonly problem: string | null } => {
  let end = bytes.length
  while (end > 0 && bytes[end - 1] === 0) end -= 1
  const stored = bytes.subarray(0, end)
  const name = format <= 1 ? (decodeGodot3Utf8(stored) ?? "") : decodeGodot4Utf8(stored)
  if (stored.includes(0)) return { name, problem: "a NUL byte inside the name" }
  const bad = strictUtf8Problem(stored)
  if (bad !== null) return { name, problem: `bytes that are not strict UTF-8 (${bad.what} at byte ${bad.offset}), which Godot ${format <= 1 ? 3 : 4} reads as ${JSON.stringify(name)}` }
  if (stored[0] === 0xef && stored[1] === 0xbb && stored[2] === 0xbf) return { name, problem: `a byte-order mark, which the engine drops (it reads ${JSON.stringify(name)})` }
  return { name, problem: null }
}

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
      const { name: rawPath, problem } = entryName(await c.bytes(pathLength), header.format)
      const offset = await c.u64()
      const size = await c.u64()
      const md5 = (await c.bytes(16)).slice()
      const flags = withFlags ? await c.u32() : 0
      const unreachable = unreachableReason(rawPath, header.format, header.engineVersion) ?? erasedReason(header.dataBase + offset, rawPath)
      entries.push({
        index,
        rawPath,
        ...(problem === null ? {} : { nameProblem: problem }),
        ...(unreachable === null ? {} : { unreachable }),
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
