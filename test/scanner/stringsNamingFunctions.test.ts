// Which strings of the pack keep a function open to calls by name (callers.ts namedByString): one holding its name as
// a word, not as a piece of a longer one, and not a literal a built-in logger prints; and a write into a shallow copy's
// own entries leaves the container it was copied from as it was (a ninetieth hunt's UI library, attackProjects135.ts).
import { describe, expect, it } from "vitest"
import { scan3Files } from "./support/scan.ts"

const errorsOf = async (text: string): Promise<ReadonlyArray<string>> => (await scan3Files({ "res://a.gd": text })).filter((f) => f.split(" ")[1] === "error")

/** `go(m)` dispatches `m` on OS; the pack's calls pass only "get_name" (a harmless method), unless `extra` names `go` otherwise. */
const dispatcher = (...extra: ReadonlyArray<string>): string => ["extends Node", "func _ready():", "\tgo()", '\tgo("get_name")', ...extra, 'func go(m = "get_name"):', "\tOS.callv(m, [])", ""].join("\n")
/** The line of `OS.callv(m, [])` after one line of `extra`. */
const CALLV_LINE = 7

describe("strings that name a function", () => {
  it("a string holding the name only inside a longer word, or printed by a logger: the calls in sight are all it gets", async () => {
    for (const extra of ['\tprint("going")', '\tvar s = "_on_go_done"', '\tprint("go")', '\tprints("go", 1)', '\tpush_warning("go")']) {
      expect(await errorsOf(dispatcher(extra)), extra).toEqual([])
    }
  })

  it("a string holding the name as a word, or cut down to it, keeps it open (a guard)", async () => {
    for (const extra of ['\tvar s = "go"', '\tvar j = "{\\"cb\\": \\"go\\"}"', '\tvar t = "go!"', '\tcall("gone".left(2), "execute")', '\tprint(str("go"))']) {
      expect(await errorsOf(dispatcher(extra)), extra).toContain(`res://a.gd:${CALLV_LINE} error dynamic-dispatch`)
    }
  })
})

describe("a shallow copy of a constant table", () => {
  const STYLE = ["extends Node", 'const T = {"a": {"m": "get_name"}, "n": 1}', "func _ready():", "\tstyle(T, {})", '\tstyle(T, {"n": 2})', '\tOS.callv(T["a"]["m"], [])']
  it("written into at its own entries (`s[k] = v`): no script's source written, the copy is a Dictionary", async () => {
    const style = ["extends Node", 'const T = {"bg": "dark", "margin": 8}', "func _ready():", "\tprint(style())", '\tprint(style(T, {"margin": 4}))', "func style(opts = T, extra = {}):"]
    for (const copy of ["\tvar s = opts.duplicate()", "\tvar s: Dictionary = opts.duplicate()", "\tvar s = T.duplicate()"]) {
      expect(await errorsOf([...style, copy, "\tfor k in extra:", "\t\ts[k] = extra[k]", "\treturn s", ""].join("\n")), copy).toEqual([])
    }
  })

  it("written into below them (`s[k][j] = v`, `s[k].merge(v)`): what the table holds changed (a guard)", async () => {
    for (const write of ['\ts["a"]["m"] = "exe" + "cute"', '\ts["a"].merge({"m": "exe" + "cute"}, true)']) {
      expect(await errorsOf([...STYLE, "func style(opts, extra):", "\tvar s = opts.duplicate()", write, "\treturn s", ""].join("\n")), write).toContain("res://a.gd:6 error dynamic-dispatch")
    }
  })
})
