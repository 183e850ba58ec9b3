// A text resource's string that Godot 3 cannot decode once its escapes are read: the engine keeps each `\uXXXX`
// escape's low byte, decodes the whole as UTF-8 and ignores a failure, which leaves the string half decoded (an
// eighty-seventh red team's built-in script read twice from the overlongs on, attackProjects133.ts, run by
// godot3-server). Such a string makes the resource unreadable; escapes that decode are read as the engine reads them.
import { describe, expect, it } from "vitest"
import { VariantTextParser } from "../../adapters/scanner/resource/variantText.ts"
import { scan3Files } from "./support/scan.ts"

const stringsOf = (text: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  const parser = new VariantTextParser(3, { tag: () => {}, assign: (_key, value) => void (value.k === "str" && out.push(value.value)) })
  parser.feed(new TextEncoder().encode(text))
  parser.finish()
  return out
}

describe("strings Godot 3 decodes half", () => {
  it("overlong escapes before a byte UTF-8 refuses, or a lone byte past ASCII: the reader refuses the text", () => {
    for (const value of ["\\u04e0\\u0481\\u04a1\\u04c3x", "caf\\u00e9", "\\u00c3"]) {
      expect(() => stringsOf(`[resource]\nname = "${value}"\n`), value).toThrow(/not UTF-8 that Godot 3 decodes/)
    }
  })

  it("escapes whose low bytes are UTF-8 (`\\u00c3\\u00a9` is é, an overlong `\\u04e0\\u0481\\u04a1` is a): read as the engine reads them", () => {
    expect(stringsOf('[resource]\nname = "caf\\u00c3\\u00a9 \\u0041 \\u04e0\\u0481\\u04a1"\n')).toEqual(["café A a"])
  })

  it("in a scene's built-in script: resource-unreadable", async () => {
    const scene = '[gd_scene load_steps=2 format=2]\n\n[sub_resource type="GDScript" id=1]\nscript/source = "extends Node\n# \\u04e0\\u0481\\u04a1\\u04c3x\n"\n\n[node name="T" type="Node"]\nscript = SubResource( 1 )\n'
    expect(await scan3Files({ "res://t.tscn": scene })).toContain("res://t.tscn: error unreadable content")
  })
})
