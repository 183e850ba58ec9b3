// Where the real-pack corpus is, and what SOURCES.tsv says about each file.
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")
export const DEFAULT_CORPUS_DIR = resolve(REPO_ROOT, "../shared/corpus/pck")

export interface CorpusLocation {
  readonly dir: string | null
  /** Why the corpus tests do not run; only set when PCK_CORPUS_DIR is unset and the default folder is absent. */
  readonly skipReason: string | null
}

/**
 * PCK_CORPUS_DIR set: that folder, and a missing folder is an error (the tests fail, never skip).
 * Unset: the default `../shared/corpus/pck`; when absent (a clone outside this team's machines), skip.
 */
export const locateCorpus = (env: Readonly<Record<string, string | undefined>> = process.env): CorpusLocation => {
  const configured = env.PCK_CORPUS_DIR
  if (configured !== undefined && configured !== "") {
    const dir = resolve(REPO_ROOT, configured)
    if (!existsSync(join(dir, "SOURCES.tsv"))) {
      throw new Error(`PCK_CORPUS_DIR=${configured} has no SOURCES.tsv (resolved to ${dir}); the corpus tests cannot run.`)
    }
    return { dir, skipReason: null }
  }
  if (existsSync(join(DEFAULT_CORPUS_DIR, "SOURCES.tsv"))) return { dir: DEFAULT_CORPUS_DIR, skipReason: null }
  return { dir: null, skipReason: `corpus tests skipped: PCK_CORPUS_DIR is unset and ${DEFAULT_CORPUS_DIR} does not exist` }
}

export interface CorpusFile {
  readonly file: string
  readonly sha256: string
  readonly bytes: number
  readonly packFormat: number
  readonly engineVersion: string
  readonly notes: string
  /** From the notes' leading "N entries"; null for the truncated header-only sample. */
  readonly entries: number | null
}

export const readSources = (dir: string): ReadonlyArray<CorpusFile> =>
  readFileSync(join(dir, "SOURCES.tsv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [file = "", sha256 = "", bytes = "0", packFormat = "0", engineVersion = "", , , , notes = ""] = line.split("\t")
      const entries = /^(\d+) entries/.exec(notes)?.[1]
      return { file, sha256, bytes: Number(bytes), packFormat: Number(packFormat), engineVersion, notes, entries: entries === undefined ? null : Number(entries) }
    })
