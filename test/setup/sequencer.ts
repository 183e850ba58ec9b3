// The order test files start in: vitest's own (files that failed or took longest last time first), except that the
// files waiting for the attacker corpus, which the global setup exports in the background (test/setup/godot.ts),
// start last, so that they do not hold a worker idle while the others could run.
import { readFileSync } from "node:fs"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/** A test file that calls this waits for the attacker corpus. */
const WAITS_FOR_CORPUS = "attackCorpusReady("

const waitsForCorpus = (file: TestSpecification): boolean => readFileSync(file.moduleId, "utf8").includes(WAITS_FOR_CORPUS)

export class CorpusLastSequencer extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    return [...sorted.filter((file) => !waitsForCorpus(file)), ...sorted.filter(waitsForCorpus)]
  }
}
