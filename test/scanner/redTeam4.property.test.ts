// Property-based, for what a fourth red team got past pckgate-scanner/6 (attackProjects5.ts holds the
// packs the engine ran): a NUL built by char(0) or "%c" % 0 anywhere in a name or path folds to what the
// engine builds (nothing), and a `\u0000` escape leaves only what comes before it known; integers
// beyond 2^53 never fold to a wrong character; a helper's parameter takes only its callers' constants
// unless some other route can reach it. Pure analysis on source text: no engine runs here.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hitsIn, ids } from "./support/analyze.ts"

type Grammar = 3 | 4

const fn = (...body: ReadonlyArray<string>): string => `extends Node\nfunc _ready():\n${body.map((l) => `\t${l}`).join("\n")}\n`
const errors = (found: ReadonlyArray<string>): ReadonlyArray<string> => ids(found.filter((h) => h.split(" ")[1] === "error"))

/** A GDScript expression for `text` split at `cuts`, each cut holding a NUL the engine drops. */
const withNuls = (text: string, cuts: ReadonlyArray<number>, nul: "char" | "format"): string => {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
  if (nul === "format") {
    let format = ""
    let from = 0
    for (const c of at) {
      format += `${text.slice(from, c)}%c`
      from = c
    }
    return `"${format}${text.slice(from)}" % [${at.map(() => "0").join(", ")}]`
  }
  const parts: Array<string> = []
  let from = 0
  for (const c of at) {
    parts.push(`"${text.slice(from, c)}"`, "char(0)")
    from = c
  }
  parts.push(`"${text.slice(from)}"`)
  return parts.join(" + ")
}

describe("NUL characters (property)", () => {
  it("a method, singleton, class or path with NULs from char(0) or %c is what the engine builds, and is caught", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(40), { minLength: 1, maxLength: 4 }),
        fc.constantFrom("char" as const, "format" as const),
        fc.constantFrom(3 as const, 4 as const),
        fc.constantFrom("method", "singleton", "class", "load", "write"),
        (cuts, nul, grammar: Grammar, where) => {
          const line =
            where === "method"
              ? `OS.call(${withNuls("execute", cuts, nul)}, "touch", [])`
              : where === "singleton"
                ? `Engine.get_singleton(${withNuls("OS", cuts, nul)}).execute("touch", [])`
                : where === "class"
                  ? `ClassDB.${grammar === 3 ? "instance" : "instantiate"}(${withNuls(grammar === 3 ? "_OS" : "OS", cuts, nul)}).execute("touch", [])`
                  : where === "load"
                    ? `load(${withNuls("user://mod.gd", cuts, nul)})`
                    : `${grammar === 3 ? "File.new().open" : "FileAccess.open"}("user://" + ${withNuls("../../x.cfg", cuts, nul)}, 2)`
          const expected = where === "load" ? "runtime-code-loading" : where === "write" ? "filesystem-outside-sandbox" : "os-process"
          expect(errors(hitsIn(fn(line), {}, grammar))).toContain(expected)
        },
      ),
      { numRuns: 150 },
    )
  })

  it("a \\u0000 escape (kept by Godot 3's tokenizer, dropped by recent 4.x ones) leaves the name not constant: an error on OS", () => {
    fc.assert(
      fc.property(fc.nat(7), fc.constantFrom(3 as const, 4 as const), (cut, grammar: Grammar) => {
        const name = `${"execute".slice(0, cut)}\\u0000${"execute".slice(cut)}`
        expect(errors(hitsIn(fn(`OS.call("${name}", "touch", [])`), {}, grammar))).toEqual(expect.arrayContaining([expect.stringMatching(/^(os-process|dynamic-dispatch)$/)]))
      }),
    )
  })
})

describe("integers beyond 2^53 (property)", () => {
  it("a character code reached through int64 arithmetic the doubles cannot follow is never folded to a wrong one", () => {
    const big = fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 62n })
    fc.assert(
      fc.property(big, fc.constantFrom(3 as const, 4 as const), fc.constantFrom("char", "format", "substr"), (x, grammar: Grammar, shape) => {
        // x + (101 - x) is 101 ("e") for the engine; as doubles it is usually another code.
        const sum = `${x} + ${101n - x}`
        const line =
          shape === "char"
            ? `OS.call(char(${sum}) + "xecute", "touch", [])`
            : shape === "format"
              ? `OS.call("%cxecute" % (${sum}), "touch", [])`
              : `OS.call("........................................................................................................execute".substr(${sum} - 101 + 104), "touch", [])`
        expect(errors(hitsIn(fn(line), {}, grammar)).some((id) => id === "os-process" || id === "dynamic-dispatch")).toBe(true)
      }),
      { numRuns: 100 },
    )
  })
})

/** The routes by which a helper `name(o, path, v)` (o.set_indexed(path, v)) may be reached with "s:source_code" besides its constant calls. */
const openRoute = fc.constantFrom(
  (name: string) => [`call("${name.slice(0, 2)}" + "${name.slice(2)}", self, "s:source_code", 1)`],
  (name: string) => [`funcref(self, "${name}").call_func(self, "s:source_code", 1)`],
  // A connection is a route once `go` is emitted (the pack never emits it otherwise, and no engine class has it).
  (name: string) => [`connect("go", self, "${name}")`, 'emit_signal("go", self, "s:source_code", 1)'],
  (name: string) => [`connect("go", self, "${name}", [self, "s:source_code", 1])`, 'emit_signal("go")'],
  (name: string) => [`get_node("x").${name}(self, "s:source_code", 1)`],
  (_name: string) => ["call(get_meta(\"n\"), self, \"s:source_code\", 1)"],
  (name: string) => [`var f = ${name}`],
)

describe("a helper's callers (property)", () => {
  it("given only constant paths by the pack's calls, a helper's parameter is those constants; any other route keeps it an error", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z][a-z0-9]{2,8}$/).map((n) => `h_${n}`),
        fc.array(fc.constantFrom('"modulate:a"', '"position:x"', '"scale"'), { minLength: 1, maxLength: 3 }),
        fc.option(openRoute, { nil: undefined }),
        (name, paths, route) => {
          const calls = paths.map((p) => `${name}(self, ${p}, 1.0)`)
          const source = `extends Node\nsignal go\nfunc _ready():\n${[...calls, ...(route?.(name) ?? [])].map((l) => `\t${l}`).join("\n")}\nfunc ${name}(o, path, v):\n\to.set_indexed(path, v)\n`
          const found = errors(hitsIn(source, {}, 3))
          if (route === undefined) expect(found).toEqual([])
          else expect(found).toContain("script-source-code")
        },
      ),
      { numRuns: 150 },
    )
  })
})
