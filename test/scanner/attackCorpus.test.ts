// The attacker corpus (fixtures/attackProjects.ts), exported and run by the real engine in the global
// setup: each attack's payload is first shown to fire in godot3-server, then to be caught by the
// scanner at its file and line. A project of variants proves each variant fired (its own marker file)
// and is caught at its own place. Look-alikes (ordinary code named like attacks) stay free of errors.
import { describe, expect, inject, it } from "vitest"
import { fixturePackPath, readAttackRun, variantMarker } from "../setup/godot.ts"
import { ATTACK_PROJECTS } from "./fixtures/attackProjects.ts"
import type { BundledLookalikes } from "./fixtures/lookalikeBundles.ts"
import { scanFile } from "./support/scan.ts"

const root = inject("godotFixtures")

/** `file:line id`, where id is the policy pattern of banned-api findings and the rule otherwise. */
const located = (f: { file: string; line: number | null; rule: string; message: string }): string => {
  const policy = /\(policy ([a-z0-9-]+)\)\.?$/.exec(f.message)?.[1]
  return `${f.file}:${f.line ?? ""} ${f.rule === "banned-api" && policy !== undefined ? policy : f.rule}`
}

const errorsOf = async (name: string): Promise<ReadonlyArray<string>> => {
  const report = await scanFile(fixturePackPath(root, name))
  expect(report.ok).toBe(false)
  return report.findings.filter((f) => f.severity === "error").map(located)
}

describe("attacker corpus, run by godot3-server", () => {
  describe.each(ATTACK_PROJECTS.filter((p) => p.run && p.variants === undefined))("$name", (project) => {
    it("the engine runs the payload (its marker file exists)", () => {
      const run = readAttackRun(root, project.name)
      expect(run.fired, `payload did not fire; engine output:\n${run.output}`).toBe(true)
    })

    it("the scanner reports it as an error at its file and line", async () => {
      expect(readAttackRun(root, project.name).fired).toBe(true)
      const errors = await errorsOf(project.name)
      for (const expected of project.expect) expect(errors).toContain(expected)
    })
  })

  describe.each(ATTACK_PROJECTS.filter((p) => p.run && p.variants !== undefined))("$name", (project) => {
    it.each(project.variants ?? [])("variant $id: the engine runs it, and the scanner reports it as an error at its file and line", async (variant) => {
      const run = readAttackRun(root, project.name)
      const marker = variantMarker(run.markers, variant.id)
      expect(marker, `variant ${variant.id} did not fire (markers: ${run.markers.join(", ")}); engine output:\n${run.output}`).toBeDefined()
      if (variant.markerAt !== undefined) expect(marker).toBe(variant.markerAt)
      const errors = await errorsOf(project.name)
      for (const expected of variant.expect) expect(errors).toContain(expected)
    })

    it("the scanner reports the project's own errors", async () => {
      const errors = await errorsOf(project.name)
      for (const expected of project.expect) expect(errors).toContain(expected)
    })
  })

  describe.each(ATTACK_PROJECTS.filter((p) => !p.run && !("members" in p)))("$name", (project) => {
    it("has no error finding outside the included sdk/ folder", async () => {
      const report = await scanFile(fixturePackPath(root, project.name))
      expect(report.findings.filter((f) => f.severity === "error" && !f.file.startsWith("res://sdk/")).map(located)).toEqual([])
    })
  })

  // Look-alikes sharing one export (fixtures/lookalikeBundles.ts), each under res://<member>/.
  describe.each(ATTACK_PROJECTS.filter((p): p is BundledLookalikes => "members" in p))("$name", (bundle) => {
    let scanned: Promise<ReadonlyArray<string>> | undefined
    const errors = (): Promise<ReadonlyArray<string>> =>
      (scanned ??= scanFile(fixturePackPath(root, bundle.name)).then((report) => report.findings.filter((f) => f.severity === "error" && !f.file.startsWith("res://sdk/")).map(located)))

    it.each(bundle.members)("look-alike %s has no error finding in its folder", async (member) => {
      expect((await errors()).filter((e) => e.startsWith(`res://${member}/`))).toEqual([])
    })

    it("has no error finding outside its members' folders (the settings, the entry scene)", async () => {
      expect((await errors()).filter((e) => !bundle.members.some((m) => e.startsWith(`res://${m}/`)))).toEqual([])
    })
  })
})
