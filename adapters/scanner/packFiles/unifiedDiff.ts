import { createTwoFilesPatch } from "diff"
import type { UnifiedDiff } from "../../../ports/PackFiles.ts"

/** A unified diff (jsdiff, 3 lines of context), cut on a line boundary at `maxBytes` of UTF-8. */
export const unifiedDiff = (path: string, before: string, after: string, maxBytes: number): UnifiedDiff => {
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 3 })
  // The header's "Index:" and "===" lines carry nothing a reviewer needs.
  const unified = patch.replace(/^Index: .*\n=+\n/, "")
  const bytes = new TextEncoder().encode(unified)
  if (bytes.length <= maxBytes) return { unified, truncated: false }
  const cut = new TextDecoder().decode(bytes.subarray(0, maxBytes), { stream: true })
  return { unified: cut.slice(0, Math.max(0, cut.lastIndexOf("\n") + 1)), truncated: true }
}
