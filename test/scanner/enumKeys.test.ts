// A hundred-and-eighth red team's (attackProjects141.ts, run by godot3-server): a named enum is a constant Dictionary
// from its members' names to their values, so `for k in T` of `enum T { get }` gives "get" and `call(k, n)` was
// `get("RUN")`, handing out the constant RUN to be changed. The enum's keys are those names now.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const program = (enums: string, loop: string): string =>
  ["extends Node", "", enums, 'const RUN = {"a": "queue_free"}', "", "func _ready():", loop, '\tOS.call(RUN["a"], "touch", ["/tmp/x"])', ""].join("\n")

describe("a named enum's keys", () => {
  it("are its members' names: a dispatch by them that hands out a constant leaves the constant unknown", () => {
    const found = hits3(program("enum T { get }\nenum N { RUN }", "\tfor k in T:\n\t\tfor n in N:\n\t\t\tvar r = call(k, n)\n\t\t\tr[\"a\"] = \"execute\""))
    expect(found.filter((h) => h.startsWith("12:"))).toEqual(["12:2 error dynamic-dispatch OS.call(…)"])
  })

  it("give no name of a method that hands anything out: the constant stays followed", () => {
    const found = hits3(`${program("enum T { idle, walk }", "\tfor k in T:\n\t\tcall(k)")}\nfunc idle():\n\tpass\n\nfunc walk():\n\tpass\n`)
    expect(found).toEqual([])
  })

  it("read by name give its values: `T.B` is a number", () => {
    const found = hits3(["extends Node", "", "enum T { A, B }", "var grid = [[null]]", "", "func _ready():", "\tgrid[T.A][T.B] = self", ""].join("\n"))
    expect(found).toEqual([])
  })

  it("as a table's keys keep it followed, with the methods its strings name (a hundred-and-eleventh hunt's breakout)", () => {
    const breakout = (keys: string): string =>
      [
        "extends Node",
        "",
        "enum PowerUp { WIDE, MULTI }",
        `const HANDLERS = {${keys}}`,
        "var bricks = []",
        "",
        "func _ready():",
        "\thit_brick(0)",
        "",
        "func hit_brick(i):",
        "\tvar b = bricks[i]",
        "\tb.hp -= 1",
        "",
        "func apply_powerup(kind):",
        "\tvar method = HANDLERS[kind]",
        "\tcall_deferred(method)",
        '\tget_tree().create_timer(5.0).connect("timeout", self, method + "_end")',
        "",
        ...["_wide", "_multi", "_wide_end", "_multi_end"].flatMap((m) => [`func _power${m}():`, "\tpass", ""]),
      ].join("\n")
    expect(hits3(breakout('PowerUp.WIDE: "_power_wide", PowerUp.MULTI: "_power_multi"'))).toEqual([])
    // Keyed by what no enum of the pack is (an engine constant's holder here), the table is not followed: seen where
    // `bricks[i]` may read a constant by name (an untyped member without a literal start may be an object).
    expect(hits3(breakout('Input.WIDE: "_power_wide", PowerUp.MULTI: "_power_multi"').replace("var bricks = []", "var bricks")).map((h) => h.split(" ").slice(0, 3).join(" "))).toEqual(["17:2 error dynamic-dispatch"])
  })
})
