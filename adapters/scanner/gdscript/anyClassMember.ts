import type { VarDecl } from "./ast.ts"
import { isEngineProperty } from "./engineScriptNames.ts"
import { getterOf } from "./memberGetter.ts"
import type { ClassRef, PackModel } from "./packModel.ts"
import type { Grammar } from "./tokenizer.ts"
import { type Val, VALUE_TYPES } from "./values.ts"

// `obj.name` on an engine object whose script the analysis does not know (a node from get_nodes_in_group, `$Path`,
// get_parent()) in a Godot 3 pack. Godot 3 reads a property of an object in this order (core/object.cpp
// Object::get, modules/gdscript/gdscript.cpp GDScriptInstance::get): its script's member (through the getter of a
// `setget`), a constant or inner class of the script or its bases, what the script's `_get` answers, then the
// engine class's property. So when no engine class has a property of that name, no class of the pack has a
// constant, inner class or `_get` that could answer it, the object holds one of the pack's members of that name (or
// the read fails): the read is those members, each as the pack writes it (memberWrites.ts, which closes a member
// only when every writer is in sight) or, for one with a getter, as its getter returns it (memberGetter.ts). Where
// the name stands for the member itself (a write's name) a member with a getter or setter is left open.

/** Engine types whose values are no objects: `d.name` on a Dictionary reads its key. */
const NOT_OBJECTS: ReadonlySet<string> = new Set(["Dictionary", "Array", "String", "StringName", "NodePath", "Callable", "Signal"])

/** Whether a value is an engine object that may carry any script of the pack (a node fetched by path). */
export const isObjectOfUnknownScript = (v: Val): boolean => v.t === "inst" && !NOT_OBJECTS.has(v.cls) && !VALUE_TYPES.has(v.cls)

/**
 * The members `obj.name` reaches on such an object, or null when something else may answer (see above) or none is
 * declared; `read`: a read, which runs a member's getter (a member with a setter alone is still left open).
 */
export const membersOfAnyClass = (model: PackModel, grammar: Grammar, name: string, read = false): ReadonlyArray<{ readonly owner: ClassRef; readonly decl: VarDecl }> | null => {
  if (grammar !== 3 || isEngineProperty(name)) return null
  const members: Array<{ readonly owner: ClassRef; readonly decl: VarDecl }> = []
  for (const cls of model.classes()) {
    const decl = model.decl(cls)
    if (decl === null || decl.functions.some((f) => f.name === "_get") || decl.consts.some((c) => c.name === name) || decl.classes.some((c) => c.name === name)) return null
    const member = decl.vars.find((v) => v.name === name)
    if (member === undefined) continue
    if ((member.accessors.length > 0 || (member.accessorNames ?? []).length > 0) && !(read && getterOf(member) !== null)) return null
    members.push({ owner: cls, decl: member })
  }
  return members.length === 0 ? null : members
}

/**
 * Whether some class of the pack could answer `obj.name` on an object carrying one of its scripts before the engine
 * class does (see above): a `_get`, or a member, constant or inner class of that name.
 */
export const packMayAnswer = (model: PackModel, name: string): boolean =>
  model.classes().some((cls) => {
    const decl = model.decl(cls)
    return decl === null || decl.functions.some((f) => f.name === "_get") || decl.vars.some((v) => v.name === name) || decl.consts.some((c) => c.name === name) || decl.classes.some((c) => c.name === name)
  })
