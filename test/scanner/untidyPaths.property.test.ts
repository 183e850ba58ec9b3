// A res:// path not in simplified form is never the pack's file (the ninth red team's bypasses: the attacker
// corpus runs them in godot3-server, fixtures/attackProjects18.ts). Godot 3 looks a pack entry up by the exact
// string, so `./`, `//` or `a/../` anywhere in a path of the pack sends the engine to the disk, decoy or not:
// a scene's [ext_resource], a setting and a load() naming such a path are errors that name the simplified path.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { simplifyResPath } from "../../adapters/scanner/pack/packPath.ts"
import { lines } from "./fixtures/godotProjects.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"
import { projectSettingsFindings } from "../../adapters/scanner/checks/projectSettingsCheck.ts"

const SEGMENTS = ["game", "levels", "mods", "mod.gd"]
const TIDY = `res://${SEGMENTS.join("/")}`

/** What is inserted before segment `at`: a `.` segment, an empty one, or a folder and `..`. */
type Insertion = { readonly at: number; readonly kind: "dot" | "empty" | "parent"; readonly name: string }

const insertion: fc.Arbitrary<Insertion> = fc.record({
  at: fc.integer({ min: 0, max: SEGMENTS.length - 1 }),
  kind: fc.constantFrom("dot", "empty", "parent"),
  name: fc.stringMatching(/^[a-z_]{1,6}$/),
})

const untidy = (insertions: ReadonlyArray<Insertion>): string => {
  const parts: Array<string> = [...SEGMENTS]
  // From the last position back, so each `at` still names a segment of the tidy path.
  for (const ins of [...insertions].sort((a, b) => b.at - a.at)) parts.splice(ins.at, 0, ...(ins.kind === "dot" ? ["."] : ins.kind === "empty" ? [""] : [ins.name, ".."]))
  return `res://${parts.join("/")}`
}

const scene = (path: string): string => lines("[gd_scene load_steps=2 format=2]", "", `[ext_resource path="${path}" type="Script" id=1]`, "", '[node name="Mod" type="Node"]', "script = ExtResource( 1 )")
const script = (path: string): string => lines("extends Node", "", "func _ready():", `\tload("${path}").new()`)

/** A Godot 3 pack holding the file at its tidy path, a scene and a script naming it by `path`. */
const packNaming = (path: string): Uint8Array =>
  writePack({
    format: 1,
    engine: [3, 2, 3],
    entries: [
      { path: "game/levels/mods/mod.gd", data: utf8(lines("extends Node")) },
      { path: "level.tscn", data: utf8(scene(path)) },
      { path: "main.gd", data: utf8(script(path)) },
    ],
  })

describe("res:// paths not in simplified form", () => {
  it("the generator's paths simplify to the pack's path and are never it", () => {
    fc.assert(fc.property(fc.array(insertion, { minLength: 1, maxLength: 3 }), (ins) => {
      const path = untidy(ins)
      expect(path).not.toBe(TIDY)
      expect(simplifyResPath(path)).toBe(TIDY)
    }))
  })

  it("an [ext_resource] and a load() naming one are errors at their lines, whatever the pack holds at the tidy path", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(insertion, { minLength: 1, maxLength: 3 }), async (ins) => {
        const path = untidy(ins)
        const report = await scanBytes(packNaming(path))
        const errors = report.findings.filter((f) => f.severity === "error")
        const sceneFinding = errors.find((f) => f.file === "res://level.tscn" && f.line === 3 && f.rule === "pack-hostile-path")
        expect(sceneFinding?.message).toContain(JSON.stringify(path))
        expect(sceneFinding?.message).toContain(`Write the path as ${TIDY}`)
        expect(errors.some((f) => f.file === "res://main.gd" && f.line === 4 && f.message.includes("(policy runtime-code-loading)"))).toBe(true)
      }),
      { numRuns: 40 },
    )
  })

  it("the same pack naming the tidy path has no such error", async () => {
    const report = await scanBytes(packNaming(TIDY))
    expect(report.findings.filter((f) => f.severity === "error" && (f.file === "res://level.tscn" || f.file === "res://main.gd"))).toEqual([])
  })

  it("a setting naming one is an error in Godot 3 settings; Godot 4, which simplifies, takes `./` and `//`", () => {
    fc.assert(
      fc.property(fc.array(insertion, { minLength: 1, maxLength: 3 }), (ins) => {
        const path = untidy(ins)
        const text = lines("[autoload]", "", `Mod="*${path}"`)
        const inPack = (p: string): boolean => p === TIDY
        const godot3 = projectSettingsFindings(text, "res://project.binary", "res://project.binary", inPack, undefined, 3)
        expect(godot3.map((f) => `${f.line} ${f.rule}`)).toEqual(["3 pack-hostile-path"])
        expect(godot3[0]?.message).toContain(`Write the path as ${TIDY}`)
        // (A `..` in a setting was already judged outside the pack for every engine.)
        if (ins.every((i) => i.kind !== "parent")) expect(projectSettingsFindings(text, "res://project.binary", "res://project.binary", inPack, undefined, 4)).toEqual([])
      }),
    )
    const climbing = projectSettingsFindings(lines("[autoload]", "", `Mod="*res://../${TIDY.slice(6)}"`), "res://project.binary", "res://project.binary", () => true, undefined, 4)
    expect(climbing.map((f) => `${f.line} ${f.rule}`)).toEqual(["3 pack-hostile-path"])
  })
})
