import type { ClassDecl } from "./ast.ts"
import { ATTACH, walkClass } from "./dialogPresence.ts"

// Whether code may put a script on an object at run time, the way the engine attaches scripts
// (core/object.cpp: Object::set_script, reached by `set_script(s)` and by a write of the `script` property by any
// channel: `o.script = s`, `set("script", s)`, `set_indexed`, a track, a tween). The other ways a script gets an
// object are the scenes' and resources' data (SceneState::instance sets a node's `script`; VariantParser's
// `Object(Class, "script": …)` sets it on an object of Class), which the scanner reads (SceneFacts.scriptHosts), an
// autoload (main.cpp instances the script's engine base class, then attaches it) and `new()` (the script's engine
// base class too): those last two make an object of the class the script extends, nothing below it.

/**
 * Calls that may hand the script a Script object it may then write by a name out of sight: a load, the script of an
 * object, a property, a meta, a reference or an object by id read back (each may be a Script).
 */
const SCRIPT_SOURCES: ReadonlySet<string> = new Set(["load", "preload", "load_interactive", "load_threaded_get", "get_resource", "get_script", "get", "get_indexed", "get_meta", "get_ref", "instance_from_id"])

/** What the pack's code says about attaching scripts at run time. */
export interface AttachWords {
  /** Some code names `set_script` or `script` (an identifier, a member, a string): a write of a script by that name. */
  readonly attaches: boolean
  /**
   * Some code may hold a Script object: a call of SCRIPT_SOURCES (or its name as a string, for a call by name), or
   * a class of the pack named as a value (a global or inner class's name, except before `.new()`).
   */
  readonly holdsScripts: boolean
}

export const attachWords = (roots: Iterable<ClassDecl>, classNames: ReadonlySet<string>): AttachWords => {
  let attaches = false
  let holdsScripts = false
  const named = new Map<string, number>()
  const newed = new Map<string, number>()
  const bump = (m: Map<string, number>, name: string): void => void m.set(name, (m.get(name) ?? 0) + 1)
  for (const root of roots) {
    walkClass(
      root,
      (e) => {
        if ((e.k === "id" || e.k === "member") && ATTACH.has(e.name)) attaches = true
        if (e.k === "str" && ATTACH.has(e.value)) attaches = true
        if (e.k === "str" && SCRIPT_SOURCES.has(e.value)) holdsScripts = true
        if (e.k === "call" && (e.callee.k === "id" || e.callee.k === "member") && SCRIPT_SOURCES.has(e.callee.name)) holdsScripts = true
        if (e.k === "id" && classNames.has(e.name)) bump(named, e.name)
        if (e.k === "member" && e.name === "new" && e.obj.k === "id" && classNames.has(e.obj.name)) bump(newed, e.obj.name)
      },
      () => {},
    )
  }
  for (const [name, count] of named) if (count > (newed.get(name) ?? 0)) holdsScripts = true
  return { attaches, holdsScripts }
}
