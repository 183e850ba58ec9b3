// Golden reports on the real-pack corpus (PCK_CORPUS_DIR, ../shared/corpus/pck): every scanner adapter must answer each
// pack with the report stored in test/contract/golden/pck/. What is stored is what a reviewer compares between scanner
// versions — the findings, the summary's counts, the capability keys — and not what only costs (bytes read) or what
// is large (the file list of a big pack). The packs themselves never enter the repository.
//
// After a deliberate change to the scanner's answers: `npm run golden:update` rewrites the stored reports, and the
// diff of test/contract/golden/ is what changed, for review.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, type Layer } from "effect"
import { describe, expect, it } from "vitest"
import { openFileByteSource } from "../../adapters/scanner/fileByteSource.ts"
import type { ScanReport } from "../../domain/scan/ScanReport.ts"
import { PackScanner } from "../../ports/PackScanner.ts"
import { locateCorpus, readSources } from "../scanner/support/corpus.ts"

export const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), "golden", "pck")
/** Set by `npm run golden:update`: the suite writes the reports instead of comparing them. */
const UPDATING = process.env["PCKGATE_GOLDEN_UPDATE"] === "1"

/** The part of a report that is compared (keys in a fixed order, so the stored JSON diffs line by line). */
export const goldenOf = (report: ScanReport) => ({
  scannerVersion: report.scannerVersion,
  ok: report.ok,
  summary: {
    packFormat: report.summary.packFormat,
    engineVersion: report.summary.engineVersion,
    entryCount: report.summary.entryCount,
    packBytes: report.summary.packBytes,
    errors: report.summary.errors,
    warnings: report.summary.warnings,
    countsByRule: Object.fromEntries(Object.entries(report.summary.countsByRule).sort(([a], [b]) => (a < b ? -1 : 1))),
  },
  listedFiles: report.files.length,
  manifest: report.manifest,
  capabilities: Object.fromEntries(Object.entries(report.capabilities ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, uses]) => [key, uses.length])),
  findings: report.findings.map((f) => ({
    rule: f.rule,
    severity: f.severity,
    file: f.file,
    line: f.line,
    column: f.column,
    pattern: f.pattern,
    ...(f.storedPath !== undefined ? { storedPath: f.storedPath } : {}),
    ...(f.embeddedIn !== undefined ? { embeddedIn: f.embeddedIn } : {}),
    ...(f.fingerprint !== undefined ? { fingerprint: f.fingerprint } : {}),
  })),
})

const goldenPath = (file: string) => join(GOLDEN_DIR, `${file}.json`)

/** Pretty JSON with one finding per line: small files whose diffs read as "this finding appeared or went". */
const goldenText = (golden: ReturnType<typeof goldenOf>): string => {
  const { findings, ...rest } = golden
  const head = JSON.stringify(rest, null, 1).slice(0, -2)
  const lines = findings.map((f) => ` ${JSON.stringify(f)}`).join(",\n")
  return `${head},\n "findings": [${findings.length === 0 ? "]" : `\n${lines}\n ]`}\n}\n`
}

const scanned = (scanner: PackScanner["Service"], path: string) =>
  Effect.runPromise(Effect.acquireUseRelease(
    Effect.promise(() => openFileByteSource(path)),
    (source) => scanner.scan(source, { path: "multipart" }),
    (source) => Effect.promise(() => source.close()),
  ))

export const packScannerContract = (name: string, makeLayer: () => Layer.Layer<PackScanner>) => {
  const corpus = locateCorpus()
  const sources = corpus.dir === null ? [] : readSources(corpus.dir)
  // Only when PCK_CORPUS_DIR is unset and the default folder is absent (see support/corpus.ts): said out loud.
  if (corpus.skipReason !== null) console.warn(`[PackScanner contract] ${corpus.skipReason}`)
  describe.skipIf(corpus.dir === null)(`PackScanner contract: ${name} (golden reports on the corpus)`, () => {
    const scanner = Effect.runSync(Effect.provide(PackScanner.use(Effect.succeed), makeLayer()))

    it("every corpus pack has a golden report, and every golden report a pack", () => {
      if (UPDATING) return
      const stored = existsSync(GOLDEN_DIR) ? readdirSync(GOLDEN_DIR).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -".json".length)) : []
      expect(stored.sort()).toEqual(sources.map((s) => s.file).sort())
    })

    it.each(sources.map((s) => s.file))("%s", async (file) => {
      const actual = goldenOf(await scanned(scanner, join(corpus.dir!, file)))
      if (UPDATING) {
        mkdirSync(GOLDEN_DIR, { recursive: true })
        writeFileSync(goldenPath(file), goldenText(actual))
        return
      }
      if (!existsSync(goldenPath(file))) throw new Error(`no golden report for ${file}: run \`npm run golden:update\` and review the new file`)
      expect(actual, `differs from ${goldenPath(file)}; if the change is intended, run \`npm run golden:update\``).toEqual(
        JSON.parse(readFileSync(goldenPath(file), "utf8")),
      )
    }, 60_000)
  })
}
