import type { Token } from "./lexer.ts"

// Small helpers over a token list without newlines: bracket matching, call arguments and literal values.

const OPEN = new Set(["(", "[", "{"])
const CLOSE = new Set([")", "]", "}"])

export const isOperator = (t: Token | undefined, text: string): boolean => t?.kind === "operator" && t.text === text

/**
 * For every bracket, the index of its partner (-1 when unbalanced), computed once per script so
 * reading a call's arguments can jump over nested groups: all calls together cost linear time,
 * however deeply a hostile script nests them.
 */
export const matchBrackets = (tokens: ReadonlyArray<Token>): Int32Array => {
  const partner = new Int32Array(tokens.length).fill(-1)
  const stack: Array<number> = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token
    if (t.kind !== "operator") continue
    if (OPEN.has(t.text)) stack.push(i)
    else if (CLOSE.has(t.text)) {
      const open = stack.pop()
      if (open === undefined) continue
      partner[open] = i
      partner[i] = open
    }
  }
  return partner
}

/**
 * The first `count` arguments of the call whose `(` is at `open`, split at top-level commas.
 * A nested group stands in an argument as its opening token only (it is never a literal anyway).
 * Null when the call is unbalanced.
 */
export const callArguments = (
  tokens: ReadonlyArray<Token>,
  partner: Int32Array,
  open: number,
  count: number,
): ReadonlyArray<ReadonlyArray<Token>> | null => {
  const close = partner[open] ?? -1
  if (!isOperator(tokens[open], "(") || close < 0) return null
  const args: Array<Array<Token>> = [[]]
  for (let j = open + 1; j < close; j++) {
    const t = tokens[j] as Token
    if (isOperator(t, ",")) {
      if (args.length >= count) return args
      args.push([])
      continue
    }
    args.at(-1)?.push(t)
    const skip = t.kind === "operator" && OPEN.has(t.text) ? (partner[j] ?? -1) : -1
    if (skip > j) j = skip
  }
  return args.length === 1 && args[0]?.length === 0 ? [] : args
}

export type Literal = { readonly _tag: "String"; readonly value: string; readonly whole: boolean } | { readonly _tag: "Keyword"; readonly value: string }

/**
 * The literal an argument evaluates to: a string (also `"a" + "b"`, folded, so splitting a name
 * does not hide it), or `true`/`false`/`null`. `whole` is false when the string is only the start
 * of a longer expression (`"user://" + name`). Null when the argument does not start with a literal.
 */
export const literalOf = (arg: ReadonlyArray<Token>): Literal | null => {
  const first = arg[0]
  if (first === undefined) return null
  if (first.kind === "identifier" && arg.length === 1 && (first.text === "true" || first.text === "false" || first.text === "null")) {
    return { _tag: "Keyword", value: first.text }
  }
  if (first.kind !== "string") return null
  let value = first.text
  let k = 1
  while (isOperator(arg[k], "+") && arg[k + 1]?.kind === "string") {
    value += arg[k + 1]?.text ?? ""
    k += 2
  }
  return { _tag: "String", value, whole: k === arg.length }
}
