import type { FunctionDecl, VarDecl } from "./ast.ts"

// A member's getter and which reads of the member run it. Both engines read a property of an object through
// Object::get, which calls the member's getter: `self.x`, `other.x`, `Autoload.x`, `get("x")` (Godot 3:
// modules/gdscript/gdscript.cpp GDScriptInstance::get; Godot 4 likewise). A bare `x` inside the class differs:
// Godot 3 compiles it to the member's slot, never the getter (gdscript_compiler.cpp, "TRY MEMBER VARIABLES":
// member_indices[...].index, with no look at the getter), while Godot 4 calls the getter everywhere but inside
// the getter itself (gdscript_compiler.cpp "Perform getter": `getter != codegen.function_name`; static
// variables the same).

/** A member's getter: a function of its class by name (3.x `setget s, g`; 4.x `get = g`) or its 4.x `get:` body. */
export type Getter = { readonly name: string } | { readonly body: FunctionDecl }

export const getterOf = (decl: Pick<VarDecl, "getter" | "accessors">): Getter | null => {
  if (decl.getter !== undefined) return { name: decl.getter }
  const body = decl.accessors.find((f) => f.name === "get")
  return body === undefined ? null : { body }
}
