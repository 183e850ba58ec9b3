// A hundred-and-fourteenth red team's (attackProjects142.ts, run by godot3-server): Godot 3 ends a line's indentation
// at a carriage return (3.x GDScriptTokenizerText::_advance counts only spaces and tabs, then skips the CR as a space),
// so `<CR><TAB>func _ready():` under an inner class is the outer class's function. The scanner had counted the tabs
// after the CR and read the function as the inner class's, whose constant N is harmless.
import { describe, expect, it } from "vitest"
import { hits3, hitsIn } from "./support/analyze.ts"

const shadowed = (func: string, body: string): string =>
  ["extends Node", 'const N = "execute"', "class H:", '\tconst N = "get_name"', `${func}func _ready():`, `${body}OS.call(N, "touch", ["/tmp/x"])`, ""].join("\n")

describe("a carriage return in a line's indentation", () => {
  it("ends it in Godot 3: the function is the outer class's, its N is `execute`", () => {
    expect(hits3(shadowed("\r\t", "\t\r\t\t"))).toEqual(['6:5 error os-process OS.call("execute")'])
  })

  it("indented with tabs alone the function is the inner class's; a CR LF line ending changes nothing", () => {
    expect(hits3(shadowed("\t", "\t\t"))).toEqual([])
    expect(hits3(shadowed("\t", "\t\t").replace(/\n/g, "\r\n"))).toEqual([])
  })

  it("Godot 4 rejects a stray CR, so its indentation is read as before", () => {
    expect(hitsIn(shadowed("\t", "\t\t"), {}, 4)).toEqual([])
  })
})
