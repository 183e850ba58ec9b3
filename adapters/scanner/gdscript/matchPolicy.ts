import type { Policy } from "../policy/Policy.ts"
import { callArguments, isOperator, literalOf, matchBrackets } from "./callSyntax.ts"
import type { Token } from "./lexer.ts"
import { indexPolicy, type PatternHit, type PolicyIndex } from "./PolicyIndex.ts"

// Matches the policy against one script's tokens. Text in comments never matches (the lexer
// drops it) and text in strings matches only in a dispatch position. The branch a call sits in
// does not matter: a banned call behind `if Engine.is_editor_hint():` is still a finding.

type Receiver = { readonly _tag: "Class"; readonly name: string } | { readonly _tag: "Instance"; readonly cls: string } | null

const MAX_ALIAS_TOKENS = 64

/** Variables that alias a banned receiver (`var os = OS`) or hold a file-system object (`var f = File.new()`). */
const trackVariables = (
  tokens: ReadonlyArray<Token>,
  index: PolicyIndex,
): { readonly aliases: Map<string, string>; readonly instances: Map<string, string> } => {
  const aliases = new Map<string, string>()
  const instances = new Map<string, string>()
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token
    if (t.kind !== "identifier" || isOperator(tokens[k - 1], ".")) continue
    // `name: Type` in declarations and parameters
    const typeToken = tokens[k + 2]
    if (isOperator(tokens[k + 1], ":") && typeToken?.kind === "identifier" && index.instanceClasses.has(typeToken.text)) {
      instances.set(t.text, typeToken.text)
    }
    // `name = rhs`, `name := rhs`, `var name (: Type)? = rhs`
    let eq = k + 1
    if (isOperator(tokens[eq], ":") && tokens[eq + 1]?.kind === "identifier") eq += 2
    if (!(isOperator(tokens[eq], "=") || isOperator(tokens[eq], ":="))) continue
    const rhs: Array<Token> = []
    for (let j = eq + 1; j < tokens.length && tokens[j]?.kind !== "newline" && rhs.length < MAX_ALIAS_TOKENS; j++) rhs.push(tokens[j] as Token)
    const [a, dot, b, open] = rhs
    if (a?.kind === "identifier" && rhs.length === 1) {
      const target = aliases.get(a.text) ?? a.text
      if (index.receivers.has(target)) aliases.set(t.text, target)
      const cls = instances.get(a.text)
      if (cls !== undefined) instances.set(t.text, cls)
    } else if (a?.kind === "identifier" && isOperator(dot, ".") && b?.kind === "identifier" && isOperator(open, "(")) {
      const cls = index.constructors.get(`${aliases.get(a.text) ?? a.text}.${b.text}`)
      if (cls !== undefined) instances.set(t.text, cls)
    }
  }
  return { aliases, instances }
}

export const matchPolicy = (allTokens: ReadonlyArray<Token>, policy: Policy): ReadonlyArray<PatternHit> => {
  const index = indexPolicy(policy)
  const { aliases, instances } = trackVariables(allTokens, index)
  const tokens = allTokens.filter((t) => t.kind !== "newline")
  const partner = matchBrackets(tokens)
  const hits: Array<PatternHit> = []
  const seen = new Set<string>()
  const hit = (h: PatternHit): void => {
    const key = `${h.entry.id}:${h.line}:${h.column}`
    if (seen.has(key)) return
    seen.add(key)
    hits.push(h)
  }

  /** What the expression ending just before the `.` at `dot` is. */
  const receiverBefore = (dot: number): Receiver => {
    const t = tokens[dot - 1]
    if (t === undefined) return null
    if (t.kind === "identifier") {
      const cls = instances.get(t.text)
      if (cls !== undefined) return { _tag: "Instance", cls }
      return { _tag: "Class", name: aliases.get(t.text) ?? t.text }
    }
    if (!isOperator(t, ")")) return null
    const open = partner[dot - 1] ?? -1
    if (open < 0) return null
    const fn = tokens[open - 1]
    if (fn?.kind !== "identifier") return null
    const before = isOperator(tokens[open - 2], ".") ? receiverBefore(open - 2) : null
    if (fn.text === "get_singleton" && before?._tag === "Class" && before.name === "Engine") {
      const lit = literalOf(callArguments(tokens, partner, open, 1)?.[0] ?? [])
      return lit?._tag === "String" ? { _tag: "Class", name: lit.value } : null
    }
    if (before?._tag === "Class") {
      const cls = index.constructors.get(`${before.name}.${fn.text}`)
      if (cls !== undefined) return { _tag: "Instance", cls }
    }
    return null
  }

  const receiverName = (r: Receiver): string | null => (r?._tag === "Class" ? r.name : null)

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token
    if (t.kind !== "identifier") continue
    const name = t.text
    const afterDot = isOperator(tokens[i - 1], ".")
    const isCall = isOperator(tokens[i + 1], "(")
    const receiver = afterDot ? receiverBefore(i - 1) : null
    // A finding about `OS.execute` points where the expression starts, at `OS`.
    const head = afterDot ? (tokens[expressionStart(tokens, partner, i - 1)] ?? t) : t
    const at = { line: head.line, column: head.column }
    const prefix = afterDot ? `${receiverName(receiver) ?? (receiver?._tag === "Instance" ? receiver.cls : "…")}.` : ""

    if (!afterDot) {
      for (const entry of index.identifiers.get(name) ?? []) hit({ entry, line: t.line, column: t.column, severity: entry.severity, matched: name })
    }

    for (const { entry, match } of index.members.get(name) ?? []) {
      const on = receiverName(receiver)
      if (afterDot && on !== null && match.receivers.includes(on)) hit({ entry, ...at, severity: entry.severity, matched: `${on}.${name}` })
      else if (afterDot && isCall && (match.anyReceiver ?? []).includes(name)) hit({ entry, ...at, severity: entry.severity, matched: `${prefix}${name}(…)` })
    }

    if (afterDot && (isOperator(tokens[i + 1], "=") || isOperator(tokens[i + 1], "+="))) {
      for (const entry of index.assignments.get(name) ?? []) hit({ entry, ...at, severity: entry.severity, matched: `.${name} =` })
    }
    if (isCall) {
      for (const entry of index.setters.get(name) ?? []) hit({ entry, ...at, severity: entry.severity, matched: `${prefix}${name}(…)` })
    }

    if (!isCall) continue
    const argumentRules = index.arguments.get(name)
    const dispatchers = index.dispatchers.get(name)
    const pathRules = afterDot ? index.paths : []
    // Only as many arguments as some rule looks at are read.
    const wanted = Math.max(
      0,
      ...(argumentRules ?? []).map((r) => r.match.argument + 1),
      ...(dispatchers ?? []).map((d) => Math.max(d.nameArgument ?? -1, d.classArgument ?? -1, d.targetArgument ?? -1) + 1),
      ...(pathRules.length > 0 ? [2] : []),
    )
    const args = wanted > 0 ? callArguments(tokens, partner, i + 1, wanted) : null

    for (const { entry, match } of argumentRules ?? []) {
      const on = receiverName(receiver)
      if (!match.receivers.includes("*") && !(on !== null && match.receivers.includes(on))) continue
      const arg = args?.[match.argument]
      if (arg === undefined) continue
      const lit = literalOf(arg)
      if (lit?._tag === "Keyword" && lit.value === match.equals) {
        hit({ entry, ...at, severity: entry.severity, matched: `${prefix}${name}(${describeArgs(args ?? [], match.argument)})` })
      } else if (lit === null && match.otherwise !== undefined) {
        hit({ entry, ...at, severity: match.otherwise, matched: `${prefix}${name}(…)`, note: `argument ${match.argument + 1} is not a literal, so it cannot be shown to be ${match.equals === "true" ? "false" : "safe"}` })
      }
    }

    if (afterDot) {
      for (const { entry, match } of pathRules) {
        const on = receiverName(receiver)
        const staticArgs = on !== null ? match.static[on]?.[name] : undefined
        const instanceArgs = receiver?._tag === "Instance" ? match.instances[receiver.cls]?.[name] : undefined
        const indexes = staticArgs ?? instanceArgs
        if (indexes === undefined) continue
        for (const n of indexes) {
          const arg = args?.[n]
          if (args !== null && arg === undefined) continue
          const lit = arg === undefined ? null : literalOf(arg)
          const call = `${prefix}${name}`
          if (lit?._tag !== "String") {
            hit({ entry, ...at, severity: match.otherwise, matched: `${call}(…)`, note: `path argument ${n + 1} is not a string literal, so it cannot be shown to stay inside ${match.allowedPrefixes.join(" or ")}` })
          } else {
            const verdict = judgePath(lit.value, lit.whole, match.allowedPrefixes, staticArgs === undefined)
            const shown = `${call}(${JSON.stringify(lit.value)}${lit.whole ? "" : " …"})`
            if (verdict === "outside") hit({ entry, ...at, severity: entry.severity, matched: shown })
            else if (verdict === "unknown") {
              hit({ entry, ...at, severity: match.otherwise, matched: shown, note: `the path is built at run time from ${JSON.stringify(lit.value)}, so it cannot be shown to stay inside ${match.allowedPrefixes.join(" or ")}` })
            }
          }
        }
      }
    }

    for (const d of dispatchers ?? []) {
      if (d.function.includes(".")) {
        const cls = d.function.slice(0, d.function.lastIndexOf("."))
        if (receiverName(receiver) !== cls) continue
      }
      if (args === null) continue
      if (d.classArgument !== undefined) {
        const lit = literalOf(args[d.classArgument] ?? [])
        if (lit?._tag === "String") {
          for (const entry of index.identifiers.get(lit.value) ?? []) {
            hit({ entry, ...at, severity: entry.severity, matched: `${d.function}(${JSON.stringify(lit.value)})` })
          }
        }
      }
      if (d.nameArgument === undefined) continue
      const lit = literalOf(args[d.nameArgument] ?? [])
      if (lit?._tag !== "String") continue
      const target = d.targetArgument === undefined ? receiver : targetOf(args[d.targetArgument] ?? [], aliases)
      const matched = `${prefix}${name}(${describeArgs(args, d.nameArgument)})`
      for (const { entry, match } of index.members.get(lit.value) ?? []) {
        const mode = d.sameReceiverOnly === true && match.dispatch !== "never" ? "same-receiver" : (match.dispatch ?? "same-receiver")
        const on = receiverName(target)
        if (mode === "any-receiver" || (mode === "same-receiver" && on !== null && match.receivers.includes(on))) {
          hit({ entry, ...at, severity: entry.severity, matched })
        }
      }
      if (d.setter === true) for (const entry of index.assignments.get(lit.value) ?? []) hit({ entry, ...at, severity: entry.severity, matched })
    }
  }
  return hits
}

/** First token of the `a.b(…).c` chain whose last `.` is at `dot` (bounded walk back). */
const expressionStart = (tokens: ReadonlyArray<Token>, partner: Int32Array, dot: number): number => {
  let start = dot - 1
  for (let steps = 0; steps < 64; steps++) {
    const t = tokens[start]
    if (t === undefined) return dot + 1
    if (isOperator(t, ")") || isOperator(t, "]")) {
      const open = isOperator(t, ")") ? (partner[start] ?? -1) : -1
      if (open < 0 || tokens[open - 1]?.kind !== "identifier") return start
      start = open - 1
    }
    if (!isOperator(tokens[start - 1], ".")) return start
    start -= 2
  }
  return start
}

const targetOf = (arg: ReadonlyArray<Token>, aliases: ReadonlyMap<string, string>): Receiver => {
  const only = arg[0]
  return arg.length === 1 && only?.kind === "identifier" ? { _tag: "Class", name: aliases.get(only.text) ?? only.text } : null
}

/** `…, "execute"` style rendering of the interesting argument. */
const describeArgs = (args: ReadonlyArray<ReadonlyArray<Token>>, at: number): string =>
  args
    .slice(0, at + 1)
    .map((arg, n) => {
      if (n < at) return "…"
      const lit = literalOf(arg)
      return lit === null ? "…" : lit._tag === "String" ? JSON.stringify(lit.value) : lit.value
    })
    .join(", ")

/**
 * A literal path stays inside when it starts with an allowed prefix (or, for methods of an opened
 * directory, is relative) and has no `..` segment. A path that is only the start of a longer
 * expression is judged on what that start already proves: an allowed prefix or an absolute root.
 */
const judgePath = (
  path: string,
  whole: boolean,
  allowedPrefixes: ReadonlyArray<string>,
  relativeAllowed: boolean,
): "inside" | "outside" | "unknown" => {
  if (path.split(/[/\\]/).includes("..")) return "outside"
  if (allowedPrefixes.some((p) => path.startsWith(p))) return "inside"
  const absolute = /^([/\\~]|[A-Za-z]:|[A-Za-z][A-Za-z0-9+.-]*:\/\/)/.test(path)
  if (absolute) return "outside"
  if (!whole) return relativeAllowed ? "inside" : "unknown"
  return relativeAllowed && path.length > 0 ? "inside" : "outside"
}
