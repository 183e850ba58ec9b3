import type { PatternHit } from "../gdscript/PolicyIndex.ts"
import type { ScriptLocation } from "./scriptFindings.ts"

// A load whose path the analysis did not pin down (a value it lost on a channel it does not follow: a project
// setting of the game's own, an element of a constant changed through an alias, a setter), or built at run time
// under res:// (`"res://levels/" + name`, where `name` may hold `..`: godot3-server 3.2.3 loads
// `"res://" + "../" * 12 + OS.get_user_data_dir()…` from the disk), is a warning on its own: a game loads levels by
// names from many places. Code loaded from outside the pack has to be on the disk,
// and what puts it there is a file the pack writes (gdscript/loadableWrites.ts); so in a pack that may write a
// file a load reads as code, such a load is an error, naming that write. Judged once every script is read.

/** A load's hit held until the pack's writes are known, with the script it is in. */
export interface PendingLoad {
  readonly hit: PatternHit
  readonly location: ScriptLocation
}

/** A write of the pack whose file a load may read as code, where it is. */
export interface LoadableWrite {
  readonly file: string
  readonly line: number | null
  readonly shown: string
  /** Its path has a part built at run time after user:// that may hold `..` (FileAccess does not simplify it): it may land anywhere, beside the game too. */
  readonly mayClimb: boolean
}

const FIX = "Load only files of the pack (res://…) by paths the code spells out, and write only data a load cannot read as code under user:// (.json, .cfg, .txt, images): keep save data in JSON"

/** The held loads' hits: errors when the pack may write a file a load reads as code, else the warnings they were. */
export const judgeUnpinnedLoads = (pending: ReadonlyArray<PendingLoad>, all: ReadonlyArray<LoadableWrite>): ReadonlyArray<PendingLoad> => {
  // A numbered res:// path names a file of its folder only: a write lands there only by climbing out of user://.
  const climbing = all.filter((w) => w.mayClimb)
  return pending.map(({ hit: { unpinnedLoad: kind, ...hit }, location }) => {
    const writes = kind === "numbered" ? climbing : all
    const write = writes[0]
    if (write === undefined) return { location, hit }
    const where = `${write.file}${write.line === null ? "" : `:${write.line}`} ${write.shown}${writes.length > 1 ? ` and ${writes.length - 1} other write${writes.length === 2 ? "" : "s"}` : ""}`
    const how = kind === "numbered" ? `, whose path may climb out of user:// with ".." to the folder this load reads` : ""
    return { location, hit: { ...hit, severity: "error", note: `${hit.note ?? "the path is not a literal"}; and the pack writes files a load can read as code (${where}${how}): a path built at run time can name them (a res:// path climbs out of the game's folder with "..")`, fix: FIX } }
  })
}
