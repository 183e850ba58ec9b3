// Hidden characters in creators' text: found wherever they are, each on its own, and nothing else taken for one.
import fc from "fast-check"
import { describe, expect, test } from "vitest"
import { isHiddenCharacter, splitHidden } from "../../domain/text/hiddenCharacters.ts"

const joined = (pieces: ReturnType<typeof splitHidden>) => pieces.map((p) => ("text" in p ? p.text : String.fromCodePoint(p.hidden))).join("")

describe("splitHidden", () => {
  test("cuts a Trojan Source line at each control, keeping the visible runs as they are", () => {
    expect(splitHidden('x != "user\u202E \u2066# admin\u2069 \u2066"')).toEqual([
      { text: 'x != "user' },
      { hidden: 0x202e },
      { text: " " },
      { hidden: 0x2066 },
      { text: "# admin" },
      { hidden: 0x2069 },
      { text: " " },
      { hidden: 0x2066 },
      { text: '"' },
    ])
  })

  test("TAB, LF and CR, letters of right-to-left scripts and emoji are visible text", () => {
    expect(splitHidden("a\tb\r\nשלום 😀 مرحبا")).toEqual([{ text: "a\tb\r\nשלום 😀 مرحبا" }])
  })

  test("zero-width characters, escape sequences and the BOM are hidden characters", () => {
    expect(splitHidden("o\u200bs\u001b[2Jx\ufeff").filter((p) => "hidden" in p)).toEqual([{ hidden: 0x200b }, { hidden: 0x1b }, { hidden: 0xfeff }])
  })

  test("any text: the pieces put back together are the text, and no visible piece holds a hidden character", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const pieces = splitHidden(text)
        expect(joined(pieces)).toBe(text)
        for (const piece of pieces) {
          if ("text" in piece) for (const char of piece.text) expect(isHiddenCharacter(char.codePointAt(0)!)).toBe(false)
          else expect(isHiddenCharacter(piece.hidden)).toBe(true)
        }
      }),
      { numRuns: 500 },
    )
  })
})
