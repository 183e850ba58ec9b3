// What the CLI prints of a pack's text: hidden characters and carriage returns that would overwrite a line are marked.
import { expect, test } from "vitest"
import { findingLine } from "../../apps/cli/findingLine.ts"
import { terminalText } from "../../apps/cli/terminalText.ts"

test("bidirectional controls, escape sequences and lone carriage returns print as <U+…>; line ends stay", () => {
  expect(terminalText('+\treturn x != "user\u202E \u2066# admin\u2069"\r\n')).toBe('+\treturn x != "user<U+202E> <U+2066># admin<U+2069>"\r\n')
  expect(terminalText("safe()\rrm_all()\n")).toBe("safe()<U+000D>rm_all()\n")
  expect(terminalText("\u001b[2J\u001b]8;;https://x\u0007")).toBe("<U+001B>[2J<U+001B>]8;;https://x<U+0007>")
})

test("a finding line marks what its path and message quote from the pack", () => {
  const line = findingLine({ rule: "os-execute", pattern: "OS.execute", severity: "error", file: "res://a\u202Eb.gd", line: 3, column: 1, message: "x" })
  expect(line).toBe("res://a<U+202E>b.gd:3 os-execute x (docs: os-execute)")
})
