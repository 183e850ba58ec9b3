// The eighth red team's value-track splices and NodePath strings (the attacker corpus runs them in the engine:
// fixtures/attackProjects13.ts). The port of Variant::interpolate's string blend is checked against a literal
// transcription of the engine's loop (core/variant_op.cpp of 3.2.3, core/variant/variant.cpp of 4.x).
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { nodePathText } from "../../adapters/scanner/resource/nodePath.ts"
import { captureTails, interpolateString, splicesBetween, trackStrings } from "../../adapters/scanner/resource/stringInterpolation.ts"
import { TextResourceReader } from "../../adapters/scanner/resource/textResource.ts"

/** The engine's loop, character by character. */
const engineInterpolate = (sa: string, sb: string, c: number): string => {
  const csize = Math.trunc(sa.length + (sb.length - sa.length) * c)
  if (csize === 0) return ""
  const split = Math.trunc(csize / 2)
  let dst = ""
  for (let i = 0; i < csize; i++) {
    let chr = " "
    if (i < split) {
      if (i < sa.length) chr = sa[i] ?? " "
      else if (i < sb.length) chr = sb[i] ?? " "
    } else if (i < sb.length) chr = sb[i] ?? " "
    else if (i < sa.length) chr = sa[i] ?? " "
    dst += chr
  }
  return dst
}

const text = fc.string({ maxLength: 40, unit: fc.constantFrom("a", "[", "]", "/", ":", " ", "g", "i", "m") })

describe("Variant::interpolate of two strings", () => {
  it("matches the engine's loop for any strings and blend in [0, 1]", () => {
    fc.assert(fc.property(text, text, fc.double({ min: 0, max: 1, noNaN: true }), (a, b, c) => {
      expect(interpolateString(a, b, c)).toBe(engineInterpolate(a, b, c))
    }), { numRuns: 2000 })
  })

  it("every blend the engine builds between two keys with a '[' is among the splices judged", () => {
    fc.assert(
      fc.property(text, text, fc.double({ min: 0, max: 1, noNaN: true }), (a, b, c) => {
        const built = engineInterpolate(a, b, c)
        const all = [a, b, ...(splicesBetween(a, b) ?? [])]
        if (a.includes("[") || b.includes("[")) expect(all).toContain(built)
        else expect(built.includes("[")).toBe(false)
      }),
      { numRuns: 2000 },
    )
  })

  it("splices the red team's keys into a loading tag", () => {
    const a = "elcome back, traveler [im......................."
    const b = ".........................g]user://scene.tres[/img]"
    expect(a.includes("[img]") || b.includes("[img]")).toBe(false)
    expect(splicesBetween(a, b)?.some((s) => s.includes("[img]user://scene.tres"))).toBe(true)
  })

  it("blends every track but a discrete one, and captures from any value (3 in 3.x, 2 in 4.x)", () => {
    const keys = ["[im", "g]user://x"]
    expect(trackStrings(1, keys).splices).toEqual([])
    expect(trackStrings(2, ["user://x[/img]"]).splices).toContain("[img]user://x[/img]")
    expect(trackStrings(null, keys).splices.length).toBeGreaterThan(0)
    expect(trackStrings(3, ["user://x[/img]"]).splices).toContain("[img]user://x[/img]")
    expect(captureTails("ab")).toContain("[font=b")
  })

  it("leaves unjudged the pairs with too many splices, and the tracks past a resource's budget", () => {
    expect(trackStrings(0, [`[${"a".repeat(1000)}`, ""]).unjudged).toBe(1)
    expect(trackStrings(0, ["[im", "g]x"], { left: 0 })).toEqual({ splices: [], unjudged: 1 })
    expect(trackStrings(0, ["plain", "text"]).splices).toEqual([])
  })
})

describe("NodePath as a String", () => {
  it.each([
    ["Thanks [img]user://scene.tres[/img]", "Thanks [img]user://scene.tres[/img]"],
    ["[img]a//b[//img]", "[img]a/b[/img]"],
    ["/root//x:a:b:", "/root/x:a:b"],
    ["a::b", ""],
    ["", ""],
  ])("%s reads as %s", (raw, expected) => expect(nodePathText(raw)).toBe(expected))
})

describe("a text scene's value tracks", () => {
  const scene = (update: number, values: string): ReadonlyArray<string | null> => {
    const reader = new TextResourceReader(3)
    reader.feed(
      new TextEncoder().encode(
        ['[gd_scene load_steps=2 format=2]', "", '[sub_resource type="Animation" id=1]', 'tracks/0/type = "value"', 'tracks/0/path = NodePath("L:bbcode_text")', "tracks/0/keys = {", '"times": PoolRealArray( 0, 1 ),', `"update": ${update},`, `"values": [ ${values} ]`, "}", "", '[node name="Root" type="Control"]', ""].join("\n"),
      ),
    )
    return reader.finish().loadedPaths.map((l) => l.path)
  }

  it("a continuous track's splice loads what its keys do not name", () => {
    expect(scene(0, '"ab [im", "......g]user://scene.tres[/img]"')).toContain("user://scene.tres")
    expect(scene(1, '"ab [im", "......g]user://scene.tres[/img]"')).not.toContain("user://scene.tres")
  })

  it("a NodePath value is checked as the engine's String of it", () => {
    expect(scene(1, 'NodePath("[img]a//b[//img]")')).toContain("a/b")
  })
})
