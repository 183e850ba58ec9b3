// A hundred-and-fifteenth red team's (attackProjects142.ts, run by godot3-server): how Godot 3 groups lines into blocks.
// Its tokenizer counts a tab as one, as a space, and a less indented line closes blocks until one is no deeper than it
// (3.x GDScriptParser::_parse_newline), so `<SPACE>OS.call(m, …)` after `<TAB>` and `<TAB><4 spaces>` levels stays in
// the function, where `m` is its local. A class body begun on its header's line goes on with every following line
// indented as the header (_enter_indent_block pushes a copy of the level): `class I: var q = 1` then `const M = …`.
import { describe, expect, it } from "vitest"
import { parseScript } from "../../adapters/scanner/gdscript/parser.ts"
import { hits3, hitsIn } from "./support/analyze.ts"

describe("Godot 3's block levels", () => {
  it("count a tab as one: a line of one space after a tab's level stays in the function", () => {
    const source = ["extends Node", 'var m = "get_name"', "func _ready():", '\tvar m = "execute"', "\tif true:", "\t    pass", ' OS.call(m, "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(source)).toEqual(['7:2 error os-process OS.call("execute")'])
  })

  it("keep a class body begun on its header's line open for the lines indented as the header", () => {
    const source = ["extends Node", 'const M = "get_name"', "func _ready():", "\tvar i = I.new()", "class I: var q = 1", 'const M = "execute"', "func _init():", '\tOS.call(M, "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(source)).toEqual(['8:2 error os-process OS.call("execute")'])
  })

  it("end a statement's one-line block at the line's end, and a one-line class at a line indented less", () => {
    const statement = ["extends Node", 'var m = "get_name"', "func _ready():", '\tvar m = "execute"', "\tif true: pass", '\tOS.call(m, "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(statement)).toEqual(['6:2 error os-process OS.call("execute")'])
    const inner = ["extends Node", "class O:", '\tconst M = "get_name"', "\tclass I: var q = 1", '\tconst M2 = "x"', 'const M = "execute"', "func _ready():", '\tOS.call(M, "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(inner)).toEqual(['8:2 error os-process OS.call("execute")'])
  })

  it("in 4.x a tab is four and a one-line class is its line", () => {
    const source = ["extends Node", 'const M = "get_name"', "class I: var q = 1", "func _ready():", '\tOS.call(M, "touch", ["/tmp/x"])', ""].join("\n")
    expect(hitsIn(source, {}, 4)).toEqual([])
  })

  it("give a one-line block one statement: what follows its `;` is the enclosing block's (a hundred-and-sixteenth red team's)", () => {
    const member = ["extends Node", 'const M = "get_name"', "class I:", '\tfunc f(): pass; const M = "execute"', "\tfunc run():", '\t\tOS.call(M, "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(member)).toEqual(['6:3 error os-process OS.call("execute")'])
    const local = ["extends Node", 'const M = "get_name"', "func _ready():", '\tif randi() == 1: pass; var M = "execute"', '\tOS.call(M, "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(local)).toEqual(['5:2 error os-process OS.call("execute")'])
    // A one-line class keeps every member of its line (GDScriptParser::_parse_class has no one-line return).
    const inner = ["extends Node", 'const M = "execute"', 'class I: var a = 1; const M = "get_name"', "func _ready():", '\tI.new()', ""].join("\n")
    expect(hits3(inner)).toEqual([])
  })

  it("keep a one-line match taking branches from the rest of its line and the lines indented as it (a hundred-and-seventeenth red team's)", () => {
    const next = ["extends Node", "func _ready():", '\tmatch "execute": "none": pass', '\tvar m: OS.call(m, "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(next)).toEqual(['4:9 error os-process OS.call("execute")'])
    const semicolon = ["extends Node", "func _ready():", '\tmatch "execute": "none": pass; var m: OS.call(m, "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(semicolon)).toEqual(['3:40 error os-process OS.call("execute")'])
    const classLevel = ["extends Node", 'func _ready(): match "execute": "none": pass', 'var m: OS.call(m, "touch", ["/tmp/x"])', ""].join("\n")
    expect(hits3(classLevel)).toEqual(['3:8 error os-process OS.call("execute")'])
  })

  it("read a 3.x constant pattern as a whole expression, a conditional included (a hundred-and-twenty-second red team's)", () => {
    const source = ["extends Node", "func f(S):", "\tmatch S:", '\t\t["a" if false else "b", var M, ..]:', "\t\t\tprint(M)", ""].join("\n")
    const match = parseScript(source, 3).root.functions[0]?.body[0]
    const bind = match?.k === "match" ? match.branches[0]?.binds[0] : undefined
    expect(bind?.value.k === "index" && bind.value.index.k === "num" ? bind.value.index.text : null).toBe("1")
  })
})
