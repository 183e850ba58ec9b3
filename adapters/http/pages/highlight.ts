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

let highlighter: Promise<HighlighterCore | null> | undefined

/**
 * shiki is an optional peer dependency (an integrator embedding the domain never needs it): without it installed, code
 * is shown as plain, escaped text, and the code view says so.
 */
const load = (): Promise<HighlighterCore | null> =>
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
  })().catch((error: unknown) => {
    if (isMissingShiki(error)) return null
    throw error
  }))

const isMissingShiki = (error: unknown): boolean =>
  error instanceof Error && (error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" && error.message.includes("shiki")

/** False when shiki is not installed: pages then show code unhighlighted. */
export const highlightingAvailable = async (): Promise<boolean> => (await load()) !== null

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
  const plain = () => lines.map((line) => [{ text: line, className: null }])
  if (lang === null || lines.length > MAX_HIGHLIGHTED_LINES) return plain()
  const loaded = await load()
  if (loaded === null) return plain()
  const { tokens } = loaded.codeToTokens(lines.join("\n"), { lang, theme: THEME })
  return tokens.map((line) => line.map((token) => ({ text: token.content, className: classOf(token.color) })))
}
