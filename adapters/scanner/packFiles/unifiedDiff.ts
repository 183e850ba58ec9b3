import { createTwoFilesPatch } from "diff"
import type { UnifiedDiff } from "../../../ports/PackFiles.ts"

/**
 * Myers' diff costs (lines) × (edit distance): two large, wholly different texts would keep the server busy for
 * minutes. Past this edit distance, or this long, the diff is given as every old line removed and every new one added.
 */
const MAX_EDIT_LINES = 2000
const MAX_DIFF_MS = 500

const linesOf = (text: string): Array<string> => {
  const lines = text.split("\n")
  if (lines.at(-1) === "") lines.pop()
  return lines
}

/** The whole file replaced: one hunk, valid unified diff syntax, linear cost. */
const replacement = (path: string, before: string, after: string): string => {
  const old = linesOf(before)
  const now = linesOf(after)
  const range = (n: number) => (n === 0 ? "0,0" : `1,${n}`)
  return [`--- a/${path}`, `+++ b/${path}`, `@@ -${range(old.length)} +${range(now.length)} @@`, ...old.map((l) => `-${l}`), ...now.map((l) => `+${l}`), ""].join("\n")
}

/** A unified diff (jsdiff, 3 lines of context), cut on a line boundary at `maxBytes` of UTF-8. */
export const unifiedDiff = (path: string, before: string, after: string, maxBytes: number): UnifiedDiff => {
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, {
    context: 3,
    maxEditLength: MAX_EDIT_LINES,
    timeout: MAX_DIFF_MS,
  })
  // The header's "Index:" and "===" lines carry nothing a reviewer needs.
  const unified = patch === undefined ? replacement(path, before, after) : patch.replace(/^Index: .*\n=+\n/, "")
  const bytes = new TextEncoder().encode(unified)
  if (bytes.length <= maxBytes) return { unified, truncated: false }
  const cut = new TextDecoder().decode(bytes.subarray(0, maxBytes), { stream: true })
  return { unified: cut.slice(0, Math.max(0, cut.lastIndexOf("\n") + 1)), truncated: true }
}
