import type { DispatchData } from "../gdscript/analyzeScript.ts"
import type { PatternHit, PolicyIndex } from "../gdscript/PolicyIndex.ts"
import { reachedValues, shown } from "./loadData.ts"
import type { Context } from "./scanContext.ts"

// A method called on self by a name read from the pack's own data files, with its arguments out of sight (Godot 3's
// `connect(q.on, self, q.check, [q])` of quests read from res://data/quests.json: the signal and the binds give them):
// judged with the values of those files that can reach the name, as the analysis followed the subscripts (values.ts,
// DataSel). Each must be a string naming a method the script of the class defines (or a pack class it extends): the
// engine then calls the script's own function (Object::call asks the script first), which the analysis judges as it
// judges any function of the script called with values out of sight. A name of a method only the engine has
// (`set_script`, `call`, `set`, or any other the object inherits), a value that is not a string, a file the pack
// lacks or one that cannot be read keeps the error of a method named at run time.

export const judgeDispatchData = async (ctx: Context, idx: PolicyIndex, data: DispatchData): Promise<ReadonlyArray<PatternHit>> => {
  const entry = idx.dynamicDispatch
  if (entry === null) return []
  const sources = data.sources.join(", ")
  const error = (note: string): ReadonlyArray<PatternHit> => [
    {
      entry,
      line: data.line,
      column: data.column,
      severity: entry.severity,
      matched: data.call,
      note: `the method name comes from data read at run time (${sources}) and the call's arguments come later (from a signal or a later call): ${note}`,
      fix: "Name only methods your script defines in the data, or match the name against the ones you know and connect each by a constant name",
    },
  ]
  const got = await reachedValues(ctx, data.sources, data.sels)
  if ("problem" in got) return error(got.problem)
  const methods = new Set(data.methods)
  for (const { path, value } of got.values) {
    if (typeof value !== "string") return error(`a value of ${path} that is not a string (${shown(value)}) can reach it`)
    if (!methods.has(value)) return error(`a string of the data that can reach it, ${shown(value)}, is no method the script defines, so the engine's method of that name would run with arguments out of sight`)
  }
  return []
}
