import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding, PACK_ITSELF } from "../findings.ts"
import { ByteCursor } from "../io/ByteCursor.ts"
import type { RandomAccess } from "../io/RandomAccess.ts"
import { KNOWN_PACK_FLAGS, PACK_REL_FILEBASE, type PackHeader } from "./PackLayout.ts"

export type HeaderResult =
  | { readonly _tag: "Header"; readonly header: PackHeader; readonly findings: ReadonlyArray<Finding> }
  /** The header names a format and version but nothing further can be read; `format` is null when even that is missing. */
  | { readonly _tag: "Stop"; readonly format: number | null; readonly engineVersion: string | null; readonly findings: ReadonlyArray<Finding> }

const truncated = (what: string, need: number, have: number): Finding =>
  finding({
    rule: RULE.truncated,
    file: PACK_ITSELF,
    pattern: "truncated header",
    message: `The pack ends before its ${what} (needs ${need} bytes from the header start, the file has ${have}). Export the pack again; a pack written by PCKPacker must be flushed before it is uploaded.`,
  })

/**
 * Reads the header at `packStart`, dispatching on pack_format_version only (never on the engine
 * version). Formats 0 and 1 share a layout; 2 adds flags and file_base; 3 and 4 add dir_offset.
 */
export const readHeader = async (source: RandomAccess, packStart: number): Promise<HeaderResult> => {
  const available = source.size - packStart
  if (available < 20) return { _tag: "Stop", format: null, engineVersion: null, findings: [truncated("version fields", 20, available)] }
  const c = new ByteCursor(source, packStart + 4, 128)
  const format = await c.u32()
  const engineVersion = `${await c.u32()}.${await c.u32()}.${await c.u32()}`
  const stop = (findings: ReadonlyArray<Finding>): HeaderResult => ({ _tag: "Stop", format, engineVersion, findings })

  if (format === 0 || format === 1) {
    if (available < 88) return stop([truncated("file count (offset 84)", 88, available)])
    return {
      _tag: "Header",
      header: { packStart, format, engineVersion, flags: 0, dataBase: 0, directoryStart: packStart + 84, headerBytes: 84 },
      findings: [],
    }
  }
  if (format === 2) {
    if (available < 100) return stop([truncated("file count (offset 96)", 100, available)])
    const flags = await c.u32()
    const fileBase = await c.u64()
    const dataBase = flags & PACK_REL_FILEBASE ? packStart + fileBase : fileBase
    return {
      _tag: "Header",
      header: { packStart, format, engineVersion, flags, dataBase, directoryStart: packStart + 96, headerBytes: 96 },
      findings: unknownFlagFindings(flags),
    }
  }
  if (format === 3 || format === 4) {
    if (available < 104) return stop([truncated("reserved fields (offset 104)", 104, available)])
    const flags = await c.u32()
    const fileBase = await c.u64()
    const dirOffset = await c.u64()
    if (dirOffset < 104 || dirOffset + 4 > available) {
      return stop([
        finding({
          rule: RULE.truncated,
          file: PACK_ITSELF,
          pattern: "directory offset",
          message: `The header puts the directory at offset ${dirOffset}, outside the ${available} bytes of the pack; the file is truncated or damaged. Export it again.`,
        }),
      ])
    }
    return {
      _tag: "Header",
      header: { packStart, format, engineVersion, flags, dataBase: packStart + fileBase, directoryStart: packStart + dirOffset, headerBytes: 104 },
      findings: unknownFlagFindings(flags),
    }
  }
  return stop([])
}

const unknownFlagFindings = (flags: number): ReadonlyArray<Finding> =>
  (flags & ~KNOWN_PACK_FLAGS) === 0
    ? []
    : [
        finding({
          rule: RULE.unknownFlags,
          file: PACK_ITSELF,
          pattern: `pack flags 0x${flags.toString(16)}`,
          message: `The header sets pack flags 0x${(flags & ~KNOWN_PACK_FLAGS).toString(16)} that no known Godot version writes; the pack cannot be reviewed as written. Export it again with a stock Godot editor.`,
        }),
      ]
