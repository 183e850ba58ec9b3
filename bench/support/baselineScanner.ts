// The scanner as it was just before the GDScript front end (the "today" of issue 13's "at most 2x today's time"),
// rebuilt from the repository's history in a temporary folder, so that a bench run measures it beside the current
// scanner on the same machine, in the same process, interleaved.
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** The last commit before `pckgate-scanner/1`'s GDScript front end (00813a4's parent). */
export const BASELINE_COMMIT = "b1491915072b5c6e963d6a5eb75d66aacc33fd05"

/** Scans the pack at a path with the baseline scanner; resolves with its finding count. */
export type BaselineScan = (path: string) => Promise<number>

export type BaselineScanner = { readonly scan: BaselineScan; readonly dispose: () => void } | { readonly unavailable: string }

interface BaselineModules {
  readonly withFileByteSource: <A>(path: string, use: (source: unknown) => Promise<A>) => Promise<A>
  readonly scanPack: (source: unknown, expectations: { path: "multipart" }, config: unknown) => Promise<{ findings: ReadonlyArray<unknown> }>
  readonly defaultPolicy: unknown
  readonly nodeDecompressors: unknown
}

const importBaseline = async (dir: string): Promise<BaselineModules> => {
  const at = (path: string): string => join(dir, path)
  const [bytes, scan, policy, decompressors] = await Promise.all([
    import(at("adapters/scanner/fileByteSource.ts")),
    import(at("adapters/scanner/scanPack.ts")),
    import(at("adapters/scanner/policy/defaultPolicy.ts")),
    import(at("adapters/scanner/nodeDecompressors.ts")),
  ])
  return { withFileByteSource: bytes.withFileByteSource, scanPack: scan.scanPack, defaultPolicy: policy.defaultPolicy, nodeDecompressors: decompressors.nodeDecompressors }
}

/**
 * Extracts the baseline's scanner, domain and ports (`git archive`) next to a link to this checkout's node_modules.
 * Without the repository's history (a source tarball, a shallow clone) it says so instead.
 */
export const loadBaselineScanner = async (root: string): Promise<BaselineScanner> => {
  const dir = mkdtempSync(join(tmpdir(), "pckgate-baseline-scanner-"))
  const dispose = (): void => rmSync(dir, { recursive: true, force: true })
  const extracted = spawnSync("sh", ["-c", 'git -C "$0" archive "$1" adapters/scanner domain ports | tar -x -C "$2"', root, BASELINE_COMMIT, dir], { encoding: "utf8" })
  if (extracted.status !== 0) {
    dispose()
    return { unavailable: `commit ${BASELINE_COMMIT.slice(0, 7)} is not in this checkout's history (${extracted.stderr.trim().split("\n")[0] ?? "git failed"})` }
  }
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n')
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"))
  try {
    const baseline = await importBaseline(dir)
    const scan: BaselineScan = async (path) => {
      const report = await baseline.withFileByteSource(path, (source) => baseline.scanPack(source, { path: "multipart" }, { policy: baseline.defaultPolicy, decompressors: baseline.nodeDecompressors }))
      return report.findings.length
    }
    return { scan, dispose }
  } catch (error) {
    dispose()
    return { unavailable: `the baseline scanner did not load: ${error instanceof Error ? error.message : String(error)}` }
  }
}
