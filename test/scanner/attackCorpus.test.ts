// The attacker corpus (fixtures/attackProjects.ts), exported and run by the real engine in the global
// setup: each attack's payload is first shown to fire in godot3-server, then to be caught by the
// scanner at its file and line. A project of variants proves each variant fired (its own marker file)
// and is caught at its own place; projects of variants sharing one export and run (fixtures/attackBundles.ts) are also
// scanned with only their own files, so each catch is shown to be the member's own. Look-alikes (ordinary code named
// like attacks) stay free of errors.
import { describe, expect, inject, it } from "vitest"
import type { ScanReport } from "../../domain/scan/ScanReport.ts"
import { fixturePackPath, readAttackRun, variantMarker } from "../setup/godot.ts"
import { ATTACK_PROJECTS } from "./fixtures/attackProjects.ts"
import type { AttackMember, BundledAttacks } from "./fixtures/attackBundles.ts"
import type { BundledLookalikes } from "./fixtures/lookalikeBundles.ts"
import { packOfMember } from "./support/repack.ts"
import { scanBytes, scanFile } from "./support/scan.ts"

const root = inject("godotFixtures")

/** `file:line id`, where id is the policy pattern of banned-api findings and the rule otherwise. */
const located = (f: { file: string; line: number | null; rule: string; message: string }): string => {
  const policy = /\(policy ([a-z0-9-]+)\)\.?$/.exec(f.message)?.[1]
  return `${f.file}:${f.line ?? ""} ${f.rule === "banned-api" && policy !== undefined ? policy : f.rule}`
}

const errorsIn = (report: ScanReport): ReadonlyArray<string> => {
  expect(report.ok).toBe(false)
  return report.findings.filter((f) => f.severity === "error").map(located)
}

const errorsOf = async (name: string): Promise<ReadonlyArray<string>> => errorsIn(await scanFile(fixturePackPath(root, name)))

/** Errors of a bundle's pack, and of that pack with only one member's files and settings (packOfMember), scanned once each. */
const bundleErrors = (bundle: BundledAttacks) => {
  let whole: Promise<ReadonlyArray<string>> | undefined
  const alone = new Map<string, Promise<ReadonlyArray<string>>>()
  return {
    whole: () => (whole ??= errorsOf(bundle.name)),
    alone: (member: AttackMember) => {
      const own = { folder: member.name, settings: member.settings.keys, classes: member.settings.classes }
      const others = bundle.attackMembers.filter((m) => m !== member).map((m) => m.name)
      const found = alone.get(member.name) ?? packOfMember(fixturePackPath(root, bundle.name), own, others, bundle.ownSettings).then(async (bytes) => errorsIn(await scanBytes(bytes)))
      alone.set(member.name, found)
      return found
    },
  }
}

/**
 * Each expected `file:line rule` among the errors of the member's own pack (its verdict alone), and an error at that
 * file and line in the bundle the engine ran (where the pack-wide rules may also judge it with the other members,
 * under another rule).
 */
const expectCaught = async (errors: ReturnType<typeof bundleErrors>, member: AttackMember, expected: ReadonlyArray<string>): Promise<void> => {
  const alone = await errors.alone(member)
  const whole = await errors.whole()
  for (const finding of expected) {
    expect(alone).toContain(finding)
    const at = finding.slice(0, finding.indexOf(" "))
    expect(whole.filter((e) => e.startsWith(`${at} `)), `no error at ${at} in the bundle`).not.toEqual([])
  }
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

  describe.each(ATTACK_PROJECTS.filter((p) => p.run && p.variants !== undefined && !("attackMembers" in p)))("$name", (project) => {
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

  // Projects of variants sharing one export and one run (fixtures/attackBundles.ts), each under res://<member>/.
  describe.each(ATTACK_PROJECTS.filter((p): p is BundledAttacks => "attackMembers" in p))("$name", (bundle) => {
    const errors = bundleErrors(bundle)
    describe.each(bundle.attackMembers)("$name", (member) => {
      it.each(member.variants)("variant $id: the engine runs it, and the scanner reports it at its file and line, in the bundle and with the member alone", async (variant) => {
        const run = readAttackRun(root, bundle.name)
        const marker = variantMarker(run.markers, variant.id)
        expect(marker, `variant ${variant.id} did not fire (markers: ${run.markers.join(", ")}); engine output:\n${run.output}`).toBeDefined()
        if (variant.markerAt !== undefined) expect(marker).toBe(variant.markerAt)
        await expectCaught(errors, member, variant.expect)
      })

      it("the scanner reports the member's own errors, in the bundle and alone", async () => {
        await expectCaught(errors, member, member.expect)
      })
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
