import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE, type RuleId } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { hostilePathReason } from "./packPath.ts"
import {
  FILE_DELTA,
  FILE_ENCRYPTED,
  FILE_REMOVAL,
  KNOWN_FILE_FLAGS,
  type PackDirectory,
  type PackEntry,
} from "./PackLayout.ts"

const PATCH_MESSAGE = "Patch packs are not accepted: upload a complete export made with --export-pack, not --export-patch."

/** An encrypted entry is the 40-byte MD5/length/IV prefix plus the plaintext padded to 16. */
const storedSize = (entry: PackEntry): number =>
  entry.flags & FILE_ENCRYPTED ? 40 + Math.ceil(entry.size / 16) * 16 : entry.size

/**
 * Judges each entry from the directory alone: unsafe names, duplicates, bytes outside the file or
 * inside the header/directory, encryption and patch flags. Entries whose bytes must not be read are
 * returned with `readable: false`.
 */
export const validateEntries = (
  directory: PackDirectory,
  fileSize: number,
): { readonly entries: ReadonlyArray<PackEntry>; readonly findings: ReadonlyArray<Finding> } => {
  const findings: Array<Finding> = []
  const seen = new Set<string>()
  const { header } = directory
  // Ranges no entry's bytes may touch: the header, and the directory wherever the format puts it.
  const forbidden: ReadonlyArray<readonly [number, number]> = [
    [header.packStart, header.packStart + header.headerBytes],
    [header.directoryStart, directory.directoryEnd],
  ]
  const entries = directory.entries.map((entry): PackEntry => {
    let readable = true
    const at = (rule: RuleId, pattern: string, message: string): void => {
      findings.push(finding({ rule, file: entry.path, pattern, message }))
    }
    const reason = entry.nameProblem ?? hostilePathReason(entry.rawPath) ?? entry.unreachable ?? null
    if (reason !== null) {
      at(RULE.hostilePath, "unsafe path", `Directory entry ${entry.index} has ${reason} (stored as ${JSON.stringify(entry.rawPath)}); an exporter never writes this. Remove the file and export again.`)
    }
    if (seen.has(entry.path)) {
      // Every copy is still read and scanned: the engine loads the last one (core/io/file_access_pack.cpp, add_path).
      // Godot 3's exporter writes an imported file's .import twice when the preset's include filter also names it (a
      // forty-second hunt's `data/*` beside an imported translation CSV): exporting again writes it twice again.
      const fix = entry.path.endsWith(".import")
        ? "Narrow the export preset's include filter (export_presets.cfg include_filter) to the files that are not imported (data/*.json rather than data/*), then export again: Godot 3 writes an imported file's .import twice when the filter also names it."
        : "Export the pack again."
      at(RULE.duplicatePath, "duplicate path", `${entry.path} appears more than once in the directory; the engine loads the last copy, and every copy was scanned. ${fix}`)
    }
    seen.add(entry.path)
    if (entry.flags & ~KNOWN_FILE_FLAGS) {
      at(RULE.unknownFlags, `entry flags 0x${entry.flags.toString(16)}`, `${entry.path} carries entry flags no known Godot version writes; its bytes cannot be interpreted.`)
      readable = false
    }
    if (entry.flags & FILE_ENCRYPTED) {
      at(RULE.encrypted, "encrypted entry", `${entry.path} is encrypted; encrypted content cannot be reviewed. Export without "Encrypt exported PCK" (encrypt_pck=false in export_presets.cfg).`)
      readable = false
    }
    if (entry.flags & FILE_REMOVAL) {
      at(RULE.patchContent, "removal entry", `${entry.path} is a removal entry that deletes a file of a previously loaded pack. ${PATCH_MESSAGE}`)
      return { ...entry, readable: false }
    }
    if (entry.flags & FILE_DELTA) {
      at(RULE.patchContent, "delta entry", `${entry.path} is a delta against a file of an earlier pack, not a complete file. ${PATCH_MESSAGE}`)
      readable = false
    }
    const length = storedSize(entry)
    if (!Number.isSafeInteger(entry.dataOffset) || !Number.isSafeInteger(length) || entry.dataOffset + length > fileSize) {
      at(RULE.entryOutOfBounds, "entry outside the file", `${entry.path} claims ${length} bytes at offset ${entry.dataOffset}, beyond the end of the ${fileSize}-byte file; the pack is truncated or forged.`)
      return { ...entry, readable: false }
    }
    if (length > 0 && forbidden.some(([from, to]) => entry.dataOffset < to && entry.dataOffset + length > from)) {
      at(RULE.entryOverlapsDirectory, "entry overlaps the directory", `${entry.path} claims bytes ${entry.dataOffset}-${entry.dataOffset + length} that overlap the pack header or directory; the directory is forged.`)
      readable = false
    }
    return readable === entry.readable ? entry : { ...entry, readable }
  })
  return { entries, findings }
}
