// The scanner's idea of a file's extension against a port of the engine's own rule, for random names
// (a seventh red team hid a script at `res://attack/.gd`, whose whole name is its extension).
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { extensionOf } from "../../adapters/scanner/pack/packPath.ts"
import { sniff } from "../../adapters/scanner/resource/sniff.ts"

/**
 * Godot's String::get_extension, the same in 3.2.3 (core/ustring.cpp) and 4.x (core/string/ustring.cpp): what
 * follows the last '.', or "" when there is none or a '/' or '\' comes after it. The loaders compare it without case.
 */
const engineExtension = (path: string): string => {
  const pos = path.lastIndexOf(".")
  if (pos < 0 || pos < Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"))) return ""
  return path.slice(pos + 1)
}

/** Names built from the characters that matter to the rule, so dots and slashes land everywhere. */
const pathChars = fc.constantFrom(".", "/", "\\", "a", "G", "d", "t", "r", "e", "s", "_", " ", "é")
const names = fc.tuple(fc.constantFrom("res://", "user://", "", "/"), fc.array(pathChars, { maxLength: 14 }).map((c) => c.join(""))).map(([scheme, rest]) => scheme + rest)

describe("extensionOf follows the engine's String::get_extension (property)", () => {
  it("equals the engine's extension, lower-cased with its dot, for random names", () => {
    fc.assert(
      fc.property(names, (path) => {
        const engine = engineExtension(path)
        expect(extensionOf(path)).toBe(engine === "" ? "" : `.${engine.toLowerCase()}`)
      }),
      { numRuns: 2000 },
    )
  })

  it("a name that is only an extension has it: res://attack/.gd is a script, .tres a resource", () => {
    expect(extensionOf("res://attack/.gd")).toBe(".gd")
    expect(extensionOf("res://attack/.TRES")).toBe(".tres")
    expect(extensionOf("res://.fnt")).toBe(".fnt")
    expect(extensionOf("res://a.b/c")).toBe("")
  })
})

describe("the text-resource sniff skips what the engine's VariantParser skips before the first tag (property)", () => {
  it("whitespace, ';' comments and a byte order mark before [gd_resource or [gd_scene still read as a text resource", () => {
    const encode = (s: string): Uint8Array => new TextEncoder().encode(s)
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.constantFrom(" ", "\t", "\r", "\n", "; c\n"), { maxLength: 6 }),
        fc.constantFrom("[gd_resource", "[gd_scene"),
        (bom, lead, tag) => {
          const head = encode(`${bom ? "\ufeff" : ""}${lead.join("")}${tag} type="Resource" format=2]\n`).subarray(0, 64)
          expect(sniff(head)).toBe("text-resource")
        },
      ),
    )
  })
})
