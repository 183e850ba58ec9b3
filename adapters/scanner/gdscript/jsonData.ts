import type { Expr, Stmt } from "./ast.ts"
import { isAssignment, parentsOf, PUTS_INTO, writtenInto } from "./exprWalk.ts"
import type { Grammar } from "./tokenizer.ts"

// What the engine's JSON parser gives: a Dictionary, an Array, a String, a number, a bool or null, never an
// object (3.x core/io/json.cpp, 4.x core/io/json.cpp `_parse_value`), and so are all the parts of it. Besides
// `parse_json(t)` (3.x) that is `JSON.parse(t).result` (3.x, a JSONParseResult), `JSON.parse_string(t)` and the
// `data` of a `JSON.new()` that parsed `t` (4.x). The result object and the parser keep the data in a property
// a script can set (`r.result = v`, `j.data = v`, `set_data`), so their data is read as JSON only where the
// object is a local whose every use reads it.

/** Members of a 3.x JSONParseResult and of a 4.x JSON object that read them (the 4.x parser's `parse` sets `data` from the text). */
const READERS: Readonly<Record<Grammar, ReadonlySet<string>>> = {
  3: new Set(["result", "error", "error_string", "error_line", "get_result", "get_error", "get_error_string", "get_error_line"]),
  4: new Set(["data", "get_data", "parse", "get_error_message", "get_error_line", "get_parsed_text"]),
}

/** Where the data is: 3.x `r.result`/`r.get_result()`, 4.x `j.data`/`j.get_data()`. */
export const JSON_DATA: Readonly<Record<Grammar, ReadonlySet<string>>> = { 3: new Set(["result", "get_result"]), 4: new Set(["data", "get_data"]) }

/** `JSON.<method>(…)` on the engine's class (`json` says whether the name `JSON` is the engine's there). */
export const jsonCall = (e: Expr, method: string, json: (name: string) => boolean): Extract<Expr, { k: "call" }> | null =>
  e.k === "call" && e.callee.k === "member" && e.callee.name === method && e.callee.obj.k === "id" && e.callee.obj.name === "JSON" && json("JSON") ? e : null

/**
 * The texts a local JSON parse result (3.x) or parser (4.x) named `name` parsed (4.x `j.parse(t)`; none for 3.x,
 * whose text is in its `JSON.parse(t)`), when every use of it in `body` reads it: a reader called or read
 * (`r.result`, `r.error`, `j.parse(t)`, `j.data`) and the data not written into there (`r.result["k"] = v`). Null
 * when it is used otherwise (written, `r.result = v`, `j.set_data(v)`, passed on, stored, returned).
 */
export const parsedTexts = (body: ReadonlyArray<Stmt>, name: string, grammar: Grammar): ReadonlyArray<Expr> | null => {
  const { all, parent } = parentsOf(body)
  const texts: Array<Expr> = []
  for (const use of all) {
    if (use.k !== "id" || use.name !== name) continue
    const p = parent.get(use)
    if (p?.k !== "member" || p.obj !== use || !READERS[grammar].has(p.name)) return null
    const call = parent.get(p)
    const called = call?.k === "call" && call.callee === p
    if (called && p.name === "parse") {
      if (call.args[0] !== undefined) texts.push(call.args[0])
      continue
    }
    if (writtenInto(called ? call : p, parent)) return null
  }
  return texts
}

/**
 * A value written into a part of the container a variable holds, into it by a member name, or by any method that
 * puts values (`c["a"]["b"] = v`, `c.a = v`, `c["a"].append(v)`, `c.merge(o)`): the variable and the value, or
 * null. What this puts there is no longer JSON's.
 */
export const partPut = (e: Expr): { readonly name: string; readonly expr: Expr } | null => {
  const root = (x: Expr, depth: number): { readonly name: string; readonly depth: number } | null =>
    x.k === "id" ? { name: x.name, depth } : x.k === "index" || x.k === "member" ? root(x.obj, depth + 1) : null
  if (e.k === "bin" && isAssignment(e.op) && (e.left.k === "index" || e.left.k === "member")) {
    const r = root(e.left, 0)
    return r !== null && (r.depth >= 2 || e.left.k === "member") ? { name: r.name, expr: e.right } : null
  }
  if (e.k !== "call" || e.callee.k !== "member" || !PUTS_INTO.has(e.callee.name)) return null
  const r = root(e.callee.obj, 0)
  const last = e.args[e.args.length - 1]
  return r !== null && last !== undefined ? { name: r.name, expr: last } : null
}
