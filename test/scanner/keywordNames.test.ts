// A hundred-and-eighteenth red team's (attackProjects143.ts, run by godot3-server): in a Godot 3 function `static` and
// `signal` are names (3.x GDScriptTokenizer::is_token_literal lists them among the tokens that "can always be
// literal", and GDScriptParser::_parse_block has no case for them), so a line starting with either is an expression.
// The scanner had read it as a declaration and dropped the assignment.
import { describe, expect, it } from "vitest"
import { hits3 } from "./support/analyze.ts"

const script = (name: string, ...lines: ReadonlyArray<string>): string =>
  ["extends Node", "func _ready():", `\tvar ${name} = "get_name"`, ...lines.map((l) => `\t${l}`), `\tOS.call(${name}, "touch", ["/tmp/x"])`, ""].join("\n")

describe("Godot 3's keywords used as names in a function", () => {
  it.each(["static", "signal"])("read a line starting with `%s` as the assignment it is", (name) => {
    expect(hits3(script(name, `${name} = "execute"`))).toEqual(['5:2 error os-process OS.call("execute")'])
  })

  it.each(["static", "signal"])("follow a compound assignment and a one-line block's assignment to `%s`", (name) => {
    // As any other name's: the appended value is not folded, the name is computed at run time.
    const compound = (n: string) => ["extends Node", "func _ready():", `\tvar ${n} = "exe"`, `\t${n} += "cute"`, `\tOS.call(${n}, "touch", ["/tmp/x"])`, ""].join("\n")
    expect(hits3(compound(name))).toEqual(['5:2 error dynamic-dispatch OS.call(…)'])
    expect(hits3(compound(name))).toEqual(hits3(compound("m")))
    expect(hits3(script(name, `if true: ${name} = "execute"`))).toEqual(['5:2 error os-process OS.call("execute")'])
  })

  it("keep a name that is only read harmless, and a class's `static func` a function", () => {
    expect(hits3(script("static"))).toEqual([])
    const member = ["extends Node", "static func make():", '\tOS.call("execute", "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(member)).toEqual(['3:2 error os-process OS.call("execute")'])
  })

  // A hundred-and-nineteenth red team's: a parameter or `for` variable of such a name is bound to no name (the
  // parser reads it with get_token_identifier, empty for a keyword), so the body's word is the class's member.
  it.each(["static", "signal", "remote", "onready", "sync"])("read a parameter or loop variable named `%s` as the member it reads", (name) => {
    const loop = ["extends Node", `var ${name} = "execute"`, "func _ready():", `\tfor ${name} in ["get_name"]:`, `\t\tOS.call(${name}, "touch", ["/tmp/x"])`, ""].join("\n")
    expect(hits3(loop)).toEqual(['5:3 error os-process OS.call("execute")'])
    const param = ["extends Node", `var ${name} = "execute"`, `func run(${name}):`, `\tOS.call(${name}, "touch", ["/tmp/x"])`, "func _ready():", '\trun("get_name")', ""].join("\n")
    expect(hits3(param)).toEqual(['4:2 error os-process OS.call("execute")'])
  })

  it("keep a parameter of any other name its own", () => {
    const param = ["extends Node", 'var action = "execute"', "func run(action):", '\tOS.call(action, "touch", ["/tmp/x"])', "func _ready():", '\trun("get_name")', ""].join("\n")
    expect(hits3(param)).toEqual([])
  })
})
