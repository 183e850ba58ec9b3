import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding, PACK_ITSELF } from "../findings.ts"
import type { RandomAccess } from "../io/RandomAccess.ts"
import { locatePack } from "./locatePack.ts"
import { PACK_DIR_ENCRYPTED, PACK_SPARSE_BUNDLE, type PackEntry, type PackHeader } from "./PackLayout.ts"
import { readDirectory } from "./readDirectory.ts"
import { readHeader } from "./readHeader.ts"
import { validateEntries } from "./validateEntries.ts"

export type OpenedPack =
  /** No `GDPC` anywhere the engine would look: not a Godot pack. */
  | { readonly _tag: "NotAPack" }
  /** A pack whose entries cannot (or must not) be examined; `findings` says why. */
  | {
      readonly _tag: "Unreadable"
      readonly format: number | null
      readonly engineVersion: string | null
      readonly entryCount: number
      readonly findings: ReadonlyArray<Finding>
    }
  | {
      readonly _tag: "Readable"
      readonly header: PackHeader
      readonly entries: ReadonlyArray<PackEntry>
      /** False when the directory was cut short: checks about absent files would be guesses. */
      readonly complete: boolean
      readonly findings: ReadonlyArray<Finding>
    }

/** Locates the pack, reads header and directory, and judges the directory. Reads nothing else. */
export const openPack = async (source: RandomAccess): Promise<OpenedPack> => {
  const location = await locatePack(source)
  if (location === null) return { _tag: "NotAPack" }
  const findings: Array<Finding> = []
  if (location.packStart > 0) {
    findings.push(
      finding({
        rule: RULE.embeddedInExecutable,
        file: PACK_ITSELF,
        pattern: location.foundBy,
        message: `The pack starts at byte ${location.packStart}, after ${location.packStart} bytes of other content (found through the ${location.foundBy}); this is an executable with an embedded pack, and executables are native code. Upload the standalone .pck from --export-pack.`,
      }),
    )
  }
  const headerResult = await readHeader(source, location.packStart)
  findings.push(...headerResult.findings)
  if (headerResult._tag === "Stop") {
    if (headerResult.format !== null && headerResult.findings.length === 0) findings.push(unsupportedFormat(headerResult.format))
    return { _tag: "Unreadable", format: headerResult.format, engineVersion: headerResult.engineVersion, entryCount: 0, findings }
  }
  const { header } = headerResult
  const unreadable = (entryCount: number): OpenedPack => ({
    _tag: "Unreadable",
    format: header.format,
    engineVersion: header.engineVersion,
    entryCount,
    findings,
  })
  if (header.format >= 2 && header.flags & PACK_DIR_ENCRYPTED) {
    const declared = await readDirectoryCount(source, header)
    // The count is plaintext but unverifiable; report it only when the bytes could hold that many entries.
    const count = declared * 36 <= source.size - header.directoryStart - 4 ? declared : 0
    findings.push(
      finding({
        rule: RULE.encrypted,
        file: PACK_ITSELF,
        pattern: "encrypted directory",
        message: `The pack directory is encrypted (${declared} entries declared); encrypted content cannot be reviewed. Export without encryption (encrypt_pck=false and encrypt_directory=false in export_presets.cfg).`,
      }),
    )
    return unreadable(count)
  }
  const { directory, findings: directoryFindings } = await readDirectory(source, header)
  findings.push(...directoryFindings)
  // Format 0 parses like format 1, so it is listed; its content conventions (engine.cfb remaps, GDSC v10) are not reviewed.
  if (header.format === 0) {
    findings.push(unsupportedFormat(0))
    return unreadable(directory.entries.length)
  }
  if (header.flags & PACK_SPARSE_BUNDLE) {
    findings.push(
      finding({
        rule: RULE.patchContent,
        file: PACK_ITSELF,
        pattern: "sparse bundle",
        message: "The pack is a sparse bundle: its directory lists files stored outside the pack (Android assets), so their content is not in the upload. Patch and sparse packs are not accepted: upload a complete export made with --export-pack.",
      }),
    )
    return unreadable(directory.entries.length)
  }
  const validated = validateEntries(directory, source.size)
  findings.push(...validated.findings)
  return { _tag: "Readable", header, entries: validated.entries, complete: directory.entries.length === directory.declaredCount, findings }
}

const unsupportedFormat = (format: number): Finding =>
  finding({
    rule: RULE.unsupportedFormat,
    file: PACK_ITSELF,
    pattern: `pack format ${format}`,
    message:
      format === 0
        ? "unsupported pack format 0 (Godot 1.x/2.x or an early PCKPacker): its entries were listed but cannot be reviewed. Export with Godot 3.x or 4.x."
        : `unsupported pack format ${format}: no known Godot version writes it, so its directory cannot be read. Export with a stock Godot 3.x or 4.x editor.`,
  })

const readDirectoryCount = async (source: RandomAccess, header: PackHeader): Promise<number> => {
  const bytes = await source.read(header.directoryStart, 4)
  return bytes.length === 4 ? new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) : 0
}
