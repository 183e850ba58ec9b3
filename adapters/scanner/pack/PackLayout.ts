// What the reader learns from a pack's header and directory, before looking at any entry's bytes.

export const PACK_MAGIC = 0x43504447 // "GDPC" read as a little-endian u32

/** Pack flags (format 2+). */
export const PACK_DIR_ENCRYPTED = 0x1
export const PACK_REL_FILEBASE = 0x2
export const PACK_SPARSE_BUNDLE = 0x4
export const KNOWN_PACK_FLAGS = PACK_DIR_ENCRYPTED | PACK_REL_FILEBASE | PACK_SPARSE_BUNDLE

/** Per-entry flags (format 2+). */
export const FILE_ENCRYPTED = 0x1
export const FILE_REMOVAL = 0x2
export const FILE_DELTA = 0x4
export const KNOWN_FILE_FLAGS = FILE_ENCRYPTED | FILE_REMOVAL | FILE_DELTA

/** Where the pack sits inside the file: 0 for a standalone .pck, later when embedded in an executable. */
export interface PackLocation {
  readonly packStart: number
  readonly foundBy: "header" | "pe-section" | "elf-section" | "trailer"
}

export interface PackHeader {
  readonly packStart: number
  readonly format: number
  readonly engineVersion: string
  readonly flags: number
  /** Absolute offset in the file that entry offsets are added to (see the format reference §2.9). */
  readonly dataBase: number
  /** Absolute offset of the file_count field that starts the directory. */
  readonly directoryStart: number
  /** Bytes from packStart that the header occupies (entries must not overlap them). */
  readonly headerBytes: number
}

export interface PackEntry {
  /** Index in directory order, for stable messages. */
  readonly index: number
  /** The stored path as the engine decodes it (up to the first NUL). */
  readonly rawPath: string
  /** What is wrong with the stored bytes of the name (not strict UTF-8, a NUL inside), when anything is. */
  readonly nameProblem?: string
  /**
   * Why the engine never finds this entry under `path` (a path stored without `res://` in a format whose
   * engine does not trim it: packPath.ts, unreachableReason); such an entry is scanned but is not "in the pack".
   */
  readonly unreachable?: string
  /** `res://` + the path without its scheme; the key every check uses. */
  readonly path: string
  /** Absolute offset of the entry's bytes in the file. */
  readonly dataOffset: number
  /** Plaintext size as recorded in the directory. */
  readonly size: number
  readonly md5: Uint8Array
  readonly flags: number
  /** False when the directory says something about this entry that makes its bytes unusable. */
  readonly readable: boolean
}

export interface PackDirectory {
  readonly header: PackHeader
  /** Declared file_count (may exceed entries.length when the directory was cut short). */
  readonly declaredCount: number
  readonly entries: ReadonlyArray<PackEntry>
  /** Absolute end of the directory (exclusive). */
  readonly directoryEnd: number
}
