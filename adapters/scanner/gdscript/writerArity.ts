import { ARGUMENTS_FOLLOW, ARGUMENTS_IN_ARRAY, type DispatchEntry, type DispatchIndex } from "./engineDispatch.ts"

/**
 * Classes whose writers take so few arguments that a dispatch by a name out of sight with one argument could be them
 * (`o.call(n, v)` as `rpc.call("process_action", v)`, `f.call("set_function", v)`), with the words of the code that
 * make or ready such an object (one read from data acts on no object of the pack until `set_scope` or `set_instance`
 * names one). Where no code names one of them, or any way to make an object of any class (below), those writers are
 * out of reach.
 */
const MADE_BY: Readonly<Record<string, ReadonlyArray<string>>> = { JSONRPC: ["JSONRPC", "set_scope"], FuncRef: ["FuncRef", "funcref", "set_instance"] }

/** Code that may make an object of any class: by a name (ClassDB), or decoded from data (objects allowed). */
const MAKES_ANY_OBJECT: ReadonlyArray<string> = ["ClassDB", "str2var", "str_to_var", "bytes2var", "bytes_to_var", "bytes_to_var_with_objects", "get_var", "base64_to_variant", "dict2inst", "dict_to_inst", "to_native"]

/**
 * The fewest arguments a call of each writer (a method that writes a property or calls a method by name) needs to
 * write a member: the engine refuses a call with fewer (Object::call answers CALL_ERROR_TOO_FEW_ARGUMENTS). A property
 * writer takes the name and a value after its target (`set(name, v)`); JSON-RPC takes its action alone; a dispatcher
 * whose arguments follow the name takes the name and what the fewest writer it may call takes (`call("set", k, v)`);
 * one taking them in an array, the name and the array (`callv`); one whose arguments come later (`connect`,
 * `set_function`), its name and target.
 */
export const writerArities = (dispatch: DispatchIndex, writers: ReadonlySet<string>, mentions: (word: string) => boolean): ReadonlyMap<string, number> => {
  const anyObject = MAKES_ANY_OBJECT.some(mentions)
  const held = (cls: string): boolean => anyObject || !(cls in MADE_BY) || (MADE_BY[cls] ?? []).some(mentions)
  const entries = [...writers].flatMap((name) => (dispatch.byName.get(name) ?? []).filter((e) => e.kind === "method" || e.kind === "property" || e.kind === "target").map((e) => ({ name, e })))
  const last = (e: DispatchEntry): number => Math.max(e.name ?? -1, e.target ?? -1)
  const own = (name: string, e: DispatchEntry): number | null => {
    if (!held(e.class)) return Number.POSITIVE_INFINITY
    if (e.kind === "target") return Math.max(last(e) + 1, 1)
    if (e.kind === "property") return last(e) + 2
    if (ARGUMENTS_IN_ARRAY.has(name)) return last(e) + 2
    return ARGUMENTS_FOLLOW.has(name) ? null : last(e) + 1
  }
  // A dispatcher whose arguments follow needs more than the writer it calls, so the fewest of all is one that is none.
  const fewest = Math.min(...entries.map(({ name, e }) => own(name, e) ?? Number.POSITIVE_INFINITY))
  const out = new Map<string, number>()
  for (const { name, e } of entries) out.set(name, Math.min(out.get(name) ?? Number.POSITIVE_INFINITY, own(name, e) ?? last(e) + 1 + fewest))
  return out
}
