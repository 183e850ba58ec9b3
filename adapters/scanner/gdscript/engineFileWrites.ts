import table from "./engine-file-writes.json" with { type: "json" }
import type { Grammar } from "./tokenizer.ts"

// The engine methods that write or create a file or folder at a path they are given
// (engine-file-writes.json, generated from Godot's class reference by
// test/scanner/support/generateFileWrites.ts), by method name, per grammar; and the built-in Variant
// types' methods named like one (3.x Array.remove(index)).

export interface FileWrite {
  readonly class: string
  readonly method: string
  /** Argument indexes holding paths. */
  readonly paths: ReadonlyArray<number>
  /**
   * Where it writes when no path argument is given: `temp`, the operating system's temporary folder (4.4+
   * create_temp, which takes no path); `resource`, the resource's own resource_path (4.x ResourceSaver.save).
   */
  readonly implicit?: string
}

/** Classes whose instance methods take paths relative to the folder the object has open. */
export const RELATIVE_TO_OPEN_FOLDER: ReadonlySet<string> = new Set(["Directory", "DirAccess"])
/**
 * Their methods that do not: `open` (3.x Directory.open hands the path to DirAccess::open, which starts at
 * the process's working folder) and `copy`/`copy_dir` (DirAccess::copy opens both paths with FileAccess::open,
 * 3.2.3 core/os/dir_access.cpp and 4.x alike), so a relative path there is one in the working folder.
 */
export const OWN_PATHS_OF_FOLDER: ReadonlySet<string> = new Set(["open", "copy", "copy_dir"])

/** Whether a path argument of `cls.method` is fixed against the folder the object has open. */
export const fixedByOpenFolder = (cls: string, method: string): boolean => RELATIVE_TO_OPEN_FOLDER.has(cls) && !OWN_PATHS_OF_FOLDER.has(method) && !method.endsWith("_absolute")

const index = (entries: ReadonlyArray<FileWrite>): ReadonlyMap<string, ReadonlyArray<FileWrite>> => {
  const byName = new Map<string, Array<FileWrite>>()
  for (const e of entries) byName.set(e.method, [...(byName.get(e.method) ?? []), e])
  return byName
}

const byGrammar: Readonly<Record<Grammar, ReadonlyMap<string, ReadonlyArray<FileWrite>>>> = { 3: index(table[3]), 4: index(table[4]) }

/** The file-writing methods named `name` in the grammar's engine. */
export const fileWritesNamed = (grammar: Grammar, name: string): ReadonlyArray<FileWrite> => byGrammar[grammar].get(name) ?? []

/** The names of every file-writing method of the grammar's engine. */
export const fileWriteNames = (grammar: Grammar): ReadonlyArray<string> => [...byGrammar[grammar].keys()]

/** The file-writing methods of the engine class `cls` (those it declares). */
export const fileWritesOfClass = (grammar: Grammar, cls: string): ReadonlyArray<string> => [...byGrammar[grammar].values()].flat().filter((w) => w.class === cls).map((w) => w.method)

/** A built-in Variant type's method named like a file write: its class and its parameters' types (the first `minArgs` required). */
export interface VariantNamesake {
  readonly class: string
  readonly minArgs: number
  readonly types: ReadonlyArray<string>
}

/** The built-in Variant types' methods `name` (Array, the Pool arrays, …) that take `count` arguments, in the grammar's engine. */
export const variantNamesakes = (grammar: Grammar, name: string, count: number): ReadonlyArray<VariantNamesake> =>
  table.variantNamesakes[grammar].filter((v) => v.method === name && count >= v.minArgs && count <= v.types.length)
