import type { WriteData } from "../gdscript/analyzeScript.ts"
import { namesRedirect, namesStartupSettings } from "../gdscript/loadableWrites.ts"
import type { PatternHit } from "../gdscript/PolicyIndex.ts"
import { reachedValues, shown } from "./loadData.ts"
import type { Context } from "./scanContext.ts"

// A user:// write named by strings of the pack's own data files (`"user://best_" + level["id"] + ".json"`:
// gdscript/fileRules.ts, WriteData), judged with the values of those files that can reach each name, as the analysis
// followed the subscripts. A string with a `/` or `\` (a folder), a NUL (the engine's fopen cuts the path there) or
// that is `.` or `..` could leave the folder the constant start names: the climbing-write error, naming it; so is a
// file that cannot be read or parsed. A number or bool is shown as digits. Otherwise the write names one file of
// that folder: no finding.

/** Why a value of the data cannot be one file name, or null when it is one. */
const nameProblem = (v: unknown): string | null => {
  if (typeof v === "number" || typeof v === "boolean") return null
  if (typeof v !== "string") return "is not a string, and the engine writes its text into the path"
  if (v.includes("/") || v.includes("\\")) return "holds a folder separator"
  if (v.includes("\u0000")) return "holds a NUL character, which ends the path the engine opens"
  if (namesRedirect(v) || namesRedirect(`.${v}`)) return "ends in .remap or .import (or is that extension): a redirect the engine reads beside a res:// path from the disk, so a load of that path loads what the game writes"
  if (namesStartupSettings(v)) return "is project.godot or default_bus_layout.tres, which the engine reads by itself at start-up from the working folder when the pack has none, so the game's settings or bus layout at the next start are what it writes"
  return v === ".." || v === "." ? "names a folder, not a file" : null
}

export const judgeWriteData = async (ctx: Context, data: WriteData): Promise<ReadonlyArray<PatternHit>> => {
  for (const part of data.parts) {
    const got = await reachedValues(ctx, part.sources, part.sels)
    if ("problem" in got) return [{ ...data.hit, note: `${data.hit.note ?? ""}: ${got.problem}` }]
    for (const { path, value } of got.values) {
      const problem = nameProblem(value)
      if (problem !== null) return [{ ...data.hit, note: `${data.hit.note ?? ""}: ${shown(value)} of ${path} ${problem}` }]
    }
  }
  return []
}
