// Where the corpus tests look, and when they fail rather than skip.
import { mkdtempSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, inject, it } from "vitest"
import { DEFAULT_CORPUS_DIR, locateCorpus } from "./support/corpus.ts"

describe("locateCorpus", () => {
  it("PCK_CORPUS_DIR set to a missing folder is an error, never a skip", () => {
    expect(() => locateCorpus({ PCK_CORPUS_DIR: join(inject("runDir"), "no-such-corpus") })).toThrow(/has no SOURCES\.tsv/)
  })

  it("PCK_CORPUS_DIR set to a folder with SOURCES.tsv is used", () => {
    const dir = mkdtempSync(join(inject("runDir"), "corpus-"))
    writeFileSync(join(dir, "SOURCES.tsv"), "file\n")
    expect(locateCorpus({ PCK_CORPUS_DIR: dir })).toEqual({ dir, skipReason: null })
  })

  it("unset: the default ../shared/corpus/pck next to the repository", () => {
    expect(DEFAULT_CORPUS_DIR.endsWith("/shared/corpus/pck")).toBe(true)
    const located = locateCorpus({})
    expect(located.dir === DEFAULT_CORPUS_DIR || located.skipReason?.includes("PCK_CORPUS_DIR is unset")).toBe(true)
  })
})
