// GDScript and Godot resource syntax highlighting on the server with shiki: tokens carry class names, never inline
// styles, so the pages keep `style-src 'self'` (the colours live in pages.css under `.tok-*`). Loaded on first use.
import type { HighlighterCore } from "shiki/core"
import type { PackFileKind } from "../../../domain/review/PackFile.ts"

export interface Token {
  readonly text: string
  /** `tok-keyword`, `tok-string`, …; null for plain text. */
  readonly className: string | null
}

const THEME = "pckgate"
const PREFIX = "--tok-"

let highlighter: Promise<HighlighterCore> | undefined

const load = (): Promise<HighlighterCore> =>
  (highlighter ??= (async () => {
    const [{ createHighlighterCore, createCssVariablesTheme }, { createJavaScriptRegexEngine }, gdscript, gdresource] = await Promise.all([
      import("shiki/core"),
      import("shiki/engine/javascript"),
      import("shiki/langs/gdscript.mjs"),
      import("shiki/langs/gdresource.mjs"),
    ])
    return createHighlighterCore({
      themes: [createCssVariablesTheme({ name: THEME, variablePrefix: PREFIX })],
      langs: [gdscript.default, gdresource.default],
      engine: createJavaScriptRegexEngine(),
    })
  })())

/** `var(--tok-token-string-expression)` → `tok-string`; the theme's foreground is plain text. */
const classOf = (color: string | undefined): string | null => {
  const name = /^var\(--tok-(?:token-)?([a-z-]+)\)$/.exec(color ?? "")?.[1]
  if (name === undefined || name === "foreground") return null
  return `tok-${name.split("-")[0]}`
}

/** Texts above this many lines are shown plain: a reviewer still reads them, without the tokenizer's cost. */
const MAX_HIGHLIGHTED_LINES = 20_000

const languageOf = (kind: PackFileKind): "gdscript" | "gdresource" | null =>
  kind === "script" ? "gdscript" : kind === "scene" || kind === "resource" || kind === "remap" || kind === "project" ? "gdresource" : null

/** The text as lines of tokens. */
export const highlightLines = async (text: string, kind: PackFileKind): Promise<ReadonlyArray<ReadonlyArray<Token>>> => {
  const lines = text.split("\n")
  if (lines.at(-1) === "") lines.pop()
  const lang = languageOf(kind)
  if (lang === null || lines.length > MAX_HIGHLIGHTED_LINES) return lines.map((line) => [{ text: line, className: null }])
  const { tokens } = (await load()).codeToTokens(lines.join("\n"), { lang, theme: THEME })
  return tokens.map((line) => line.map((token) => ({ text: token.content, className: classOf(token.color) })))
}
