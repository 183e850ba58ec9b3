import type { ClassDecl, Expr } from "./ast.ts"

// A constant table whose items are themselves Arrays or Dictionaries (`const ABILITIES = {"fire": {"method": "_cast"}}`)
// hands out those inner containers by reference: `var a = ABILITIES["fire"]` then `a["method"] = "execute"` changes the
// constant in Godot 3 as `ABILITIES["fire"]["method"] = …` does. Where inner containers are, constantReads.ts asks more
// of a read than of a flat table's (whose items are strings and numbers, which nothing changes in place), following
// which literals a read may give (`RECIPES[id]["station"]` is a string even where `RECIPES[id]["needs"]` is a table).

/** The literal parts a read of a table may give (the declarations' literals, then their items). */
export type Parts = ReadonlyArray<Expr>

const isContainer = (e: Expr): boolean => e.k === "array" || e.k === "dict"

/** Whether some part is an Array or a Dictionary literal. */
export const holdsContainer = (parts: Parts): boolean => parts.some(isContainer)

/**
 * The parts a read of `parts` by `key` gives: a Dictionary's entry of that literal key (every value for another key,
 * or where it has keys written otherwise), an Array's items for a key that is not a literal string. Items that are not literals (a name, a call) are kept as
 * they are: leaves here, as a constant named in a literal is used otherwise than read and so never followed.
 */
export const itemsOf = (parts: Parts, key: string | null): Parts =>
  parts.flatMap((p) => {
    // A string key reads nothing of an Array (the engine stops the script).
    if (p.k === "array") return key === null ? p.items : []
    if (p.k !== "dict") return []
    if (key === null || !p.entries.every(([k]) => k.k === "str" || k.k === "num")) return p.entries.map(([, v]) => v)
    return p.entries.filter(([k]) => k.k === "str" && k.value === key).map(([, v]) => v)
  })

/** Whether some part is an Array (walking it gives its items; a Dictionary gives its keys). */
export const holdsArray = (parts: Parts): boolean => parts.some((p) => p.k === "array")

/**
 * The literals of the classes' (inner classes are classes of their own) constants and members declared with an Array
 * or Dictionary literal, by name, where some item is itself one (flat tables are left out).
 */
export const nestedTables = (classes: ReadonlyArray<ClassDecl>): ReadonlyMap<string, Parts> => {
  const out = new Map<string, Array<Expr>>()
  for (const d of classes) {
    for (const { name, init } of [...d.consts, ...d.vars]) {
      if (init !== null && isContainer(init)) out.set(name, [...(out.get(name) ?? []), init])
    }
  }
  return new Map([...out].filter(([, parts]) => holdsContainer(itemsOf(parts, null))))
}
