// Property-based, for red teamer 14d's string desync (`"\<CR>" + "; OS.execute(…) #"`, redTeam14d.test.ts): on
// random mixes of carriage returns, line feeds, backslashes, quotes, comment marks and string prefixes, the scanner's
// tokenizer puts strings and comments exactly where a separate model of each engine's tokenizer puts them
// (support/referenceLexers.ts), with the same decoded values, wherever that engine accepts the script. Pure: no Godot.
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type LexicalSpan, tokenize } from "../../adapters/scanner/gdscript/tokenizer.ts"
import { godot3Runs, godot4Runs, type LexicalRun } from "./support/referenceLexers.ts"

/** Characters that open, close, escape or end strings, comments and lines, and a few that do not. */
const PIECES = ['"', "'", "\\", "\r", "\n", "\r\n", "#", " ", "\t", "a", "r", "+", "&", "^", "@", "(", ")", "\\u0041", "\\n", '\\"', "\\\r", "\\\r\n", "\\\n", "😀", "é"]
const piece = fc.constantFrom(...PIECES)

/** Loose text, or code of strings whose bodies hold those characters (which the engine then more often accepts). */
const source = fc.oneof(
  fc.array(piece, { maxLength: 14 }).map((p) => p.join("")),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(" ", "\n", "\r\n", "a", "r", "+", "(", ")", "#x\n", "\\\n", "\\\r\n", "\\\n# c\n"),
        fc.record({ prefix: fc.constantFrom("", "r", "&", "^", "@"), quote: fc.constantFrom('"', "'", '"""', "'''"), body: fc.array(piece, { maxLength: 6 }) }).map(({ prefix, quote, body }) => `${prefix}${quote}${body.join("")}${quote}`),
      ),
      { maxLength: 6 },
    )
    .map((parts) => `a = ${parts.join("")}`),
)

/** The scanner's strings and comments, with each string's value, in source order. */
const scannerRuns = (text: string, grammar: 3 | 4): ReadonlyArray<LexicalRun> => {
  const spans: Array<LexicalSpan> = []
  const values = tokenize(text, grammar, spans)
    .filter((t) => t.kind === "str")
    .map((t) => t.text)
  let next = 0
  return spans.map((s) => (s.kind === "str" ? { ...s, value: values[next++] ?? "" } : s))
}

describe("the tokenizer against models of each engine's (red team 14d)", () => {
  it.each([
    [4, godot4Runs],
    [3, godot3Runs],
  ] as const)("Godot %i: strings and comments end where the engine ends them, with its values", (grammar, engine) => {
    let accepted = 0
    let runs = 0
    fc.assert(
      fc.property(source, (text) => {
        runs += 1
        const expected = engine(text)
        if (expected === null) return
        accepted += 1
        expect(scannerRuns(text, grammar)).toEqual(expected)
      }),
      { numRuns: 3000 },
    )
    // The comparison means something only if the engine accepts a fair share of the inputs.
    expect(accepted / runs).toBeGreaterThan(0.2)
  })

  it("the red team's spellings are among the inputs the models accept, and read as one string by Godot 4", () => {
    const c01 = 'a = "\\\r" + "; OS.execute(a) #"'
    const code = c01.indexOf(";")
    const expected = [
      { kind: "str", start: 4, end: code, value: "\\\u0000 + " },
      { kind: "comment", start: c01.indexOf("#"), end: c01.length },
    ]
    expect(godot4Runs(c01)).toEqual(expected)
    expect(scannerRuns(c01, 4)).toEqual(expected)
    // Godot 3 rejects the escape ("Invalid escape sequence"): the script never runs.
    expect(godot3Runs(c01)).toBeNull()
  })
})
