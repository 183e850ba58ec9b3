import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../domain/errors.ts"
import type { PackFileContent, PackFileEntry } from "../domain/review/PackFile.ts"
import type { ByteSource } from "./PackScanner.ts"

export interface UnifiedDiff {
  readonly unified: string
  readonly truncated: boolean
}

/**
 * Reading a pack as a reviewer does (issue 15): every entry with its creator path, kind and SHA-256, one entry's
 * content, and unified diffs of texts. Implemented over the scanner's pack and resource readers
 * (adapters/scanner/packFiles). Only a failing `ByteSource.read` yields `Unavailable`; a damaged pack lists what
 * could be read.
 */
export class PackFiles extends Context.Service<PackFiles, {
  /** Every entry, sorted by path, hashed while streamed through once. */
  index(source: ByteSource): Effect.Effect<ReadonlyArray<PackFileEntry>, Unavailable>
  /** One entry by its creator path (or `<scene>::<sub-resource>`); reads the directory and that entry only. */
  read(source: ByteSource, path: string): Effect.Effect<Option.Option<PackFileContent>, Unavailable>
  /** A unified diff of two texts, cut at `maxBytes`. */
  unifiedDiff(path: string, before: string, after: string, maxBytes: number): UnifiedDiff
}>()("pckgate/ports/PackFiles") {}
