import { ARGUMENTS_FOLLOW, ARGUMENTS_IN_ARRAY, type DispatchIndex } from "../gdscript/engineDispatch.ts"
import type { DataCall } from "../gdscript/packModel.ts"
import type { DataArg } from "../resource/SceneFacts.ts"

// Calls that scene and resource data make the engine do by name on a node, judged through the same
// dispatch table as code (engine-dispatch.json and the policy's dispatchers): a scene connection
// (`[connection … method="propagate_call" binds=["set_indexed", ["s:source_code", "…"]]]`) calls its
// method with the signal's arguments and then its binds; a method track's key (`{"method": "set_indexed",
// "args": […]}`) calls its method with its arguments. A dispatch API reached this way is followed to
// the name it is given: a property path (`set_indexed`, `set`, a tween's property) is a write of that
// path; a method (`call`, `callv`, `propagate_call`, `call_group`, …) is judged again with the arguments
// it passes on.

export type { DataArg, DataCall }

const MAX_DEPTH = 4

/** Every property path a data call writes, directly or through the dispatch APIs it reaches. */
export const dataCallWrites = (dispatch: DispatchIndex, call: DataCall, depth = 0): ReadonlyArray<string> => {
  if (depth > MAX_DEPTH) return []
  const out: Array<string> = []
  for (const entry of dispatch.byName.get(call.method) ?? []) {
    if ((entry.kind !== "method" && entry.kind !== "property") || entry.name === undefined || entry.class === "@GDScript" || entry.class === "Callable") continue
    const at = entry.name
    // The name's place: exactly `at`, or (after a signal's arguments) any bound value up to it.
    const places = call.afterSignal || call.sparse === true ? call.args.map((_, i) => i).filter((i) => i <= at) : [at]
    for (const i of places) {
      const name = call.args[i]
      if (typeof name !== "string") continue
      const rest = call.args.slice(i + 1)
      if (entry.kind === "property") {
        if (!/^(get|_get|class_get)/.test(entry.method)) out.push(name)
        continue
      }
      const passed = ARGUMENTS_FOLLOW.has(entry.method) ? rest : ARGUMENTS_IN_ARRAY.has(entry.method) ? (Array.isArray(rest[0]) ? (rest[0] as ReadonlyArray<DataArg>) : []) : []
      out.push(...dataCallWrites(dispatch, { method: name, args: passed, afterSignal: false, ...(call.sparse === true ? { sparse: true } : {}) }, depth + 1))
    }
  }
  return [...new Set(out)]
}
