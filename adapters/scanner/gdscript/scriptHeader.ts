import type { Token } from "./lexer.ts"

export type ExtendsTarget =
  | { readonly _tag: "Class"; readonly name: string; readonly line: number; readonly column: number }
  | { readonly _tag: "Path"; readonly path: string; readonly line: number; readonly column: number }

export interface ScriptHeader {
  /** Null when the script has no `extends` (it then extends RefCounted / Reference). */
  readonly extendsTarget: ExtendsTarget | null
  readonly className: string | null
}

/**
 * The script's top-level `extends` and `class_name`. Only statements at the start of a line count
 * (`extends` inside an inner `class Foo extends Bar:` belongs to the inner class).
 */
export const readScriptHeader = (tokens: ReadonlyArray<Token>): ScriptHeader => {
  let extendsTarget: ExtendsTarget | null = null
  let className: string | null = null
  let statementStart = true
  let depth = 0
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token
    if (t.kind === "newline") {
      statementStart = depth === 0
      continue
    }
    const atTop = statementStart && t.column === 1
    const classNameStatement = t.kind === "identifier" && t.text === "class_name" && (atTop || isAfterTopLevel(tokens, i))
    if (classNameStatement) {
      const next = tokens[i + 1]
      if (next?.kind === "identifier" && className === null) className = next.text
    }
    if (t.kind === "identifier" && t.text === "extends" && extendsTarget === null && (atTop || isAfterTopLevel(tokens, i))) {
      const next = tokens[i + 1]
      if (next?.kind === "string") extendsTarget = { _tag: "Path", path: next.text, line: next.line, column: next.column }
      else if (next?.kind === "identifier") {
        let name = next.text
        for (let k = i + 2; tokens[k]?.kind === "operator" && tokens[k]?.text === "." && tokens[k + 1]?.kind === "identifier"; k += 2) {
          name += `.${tokens[k + 1]?.text}`
        }
        extendsTarget = { _tag: "Class", name, line: next.line, column: next.column }
      }
    }
    if (t.kind === "operator" && "([{".includes(t.text)) depth += 1
    if (t.kind === "operator" && ")]}".includes(t.text)) depth = Math.max(0, depth - 1)
    statementStart = false
  }
  return { extendsTarget, className }
}

/** `class_name A extends B` (Godot 4) and `tool` / `@tool` prefixes put these keywords after other tokens on a top-level line. */
const isAfterTopLevel = (tokens: ReadonlyArray<Token>, i: number): boolean => {
  let k = i - 1
  while (k >= 0 && tokens[k]?.kind !== "newline") k -= 1
  const first = tokens[k + 1]
  if (first === undefined || first.column !== 1) return false
  return (
    (first.kind === "identifier" && (first.text === "class_name" || first.text === "tool" || first.text === "extends")) ||
    first.kind === "annotation"
  )
}
