// The attacker corpus (fixtures/attackProjects.ts), exported and run by the real engine in the global
// setup: each attack's payload is first shown to fire in godot3-server, then to be caught by the
// scanner at its file and line. Look-alikes (ordinary code named like attacks) stay free of errors.
import { describe, expect, inject, it } from "vitest"
import { fixturePackPath, readAttackRun } from "../setup/godot.ts"
import { ATTACK_PROJECTS } from "./fixtures/attackProjects.ts"
import { scanFile } from "./support/scan.ts"

const root = inject("godotFixtures")

/** `file:line id`, where id is the policy pattern of banned-api findings and the rule otherwise. */
const located = (f: { file: string; line: number | null; rule: string; message: string }): string => {
  const policy = /\(policy ([a-z0-9-]+)\)\.?$/.exec(f.message)?.[1]
  return `${f.file}:${f.line ?? ""} ${f.rule === "banned-api" && policy !== undefined ? policy : f.rule}`
}

describe("attacker corpus, run by godot3-server", () => {
  describe.each(ATTACK_PROJECTS.filter((p) => p.run))("$name", (project) => {
    it("the engine runs the payload (its marker file exists)", () => {
      const run = readAttackRun(root, project.name)
      expect(run.fired, `payload did not fire; engine output:\n${run.output}`).toBe(true)
    })

    it("the scanner reports it as an error at its file and line", async () => {
      expect(readAttackRun(root, project.name).fired).toBe(true)
      const report = await scanFile(fixturePackPath(root, project.name))
      const errors = report.findings.filter((f) => f.severity === "error").map(located)
      for (const expected of project.expect) expect(errors).toContain(expected)
      expect(report.ok).toBe(false)
    })
  })

  describe.each(ATTACK_PROJECTS.filter((p) => !p.run))("$name", (project) => {
    it("has no error finding outside the included sdk/ folder", async () => {
      const report = await scanFile(fixturePackPath(root, project.name))
      expect(report.findings.filter((f) => f.severity === "error" && !f.file.startsWith("res://sdk/")).map(located)).toEqual([])
    })
  })
})
