import type { ScriptAst } from "./ast.ts"

export type ExtendsTarget =
  | { readonly _tag: "Class"; readonly name: string; readonly line: number; readonly column: number }
  | { readonly _tag: "Path"; readonly path: string; readonly line: number; readonly column: number }

export interface ScriptHeader {
  /** Null when the script has no `extends` (it then extends RefCounted / Reference). */
  readonly extendsTarget: ExtendsTarget | null
  readonly className: string | null
}

/** The script's own `extends` and `class_name` (those of inner classes belong to them). */
export const headerOf = (ast: ScriptAst): ScriptHeader => {
  const ext = ast.root.extendsClause
  const extendsTarget: ExtendsTarget | null =
    ext === null
      ? null
      : ext._tag === "Path"
        ? { _tag: "Path", path: ext.path, ...ext.at }
        : { _tag: "Class", name: ext.names.join("."), ...ext.at }
  return { extendsTarget, className: ast.root.name }
}
