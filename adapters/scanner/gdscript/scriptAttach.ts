import type { ClassDecl, Expr, Stmt } from "./ast.ts"
import { ATTACH, walkClass } from "./dialogPresence.ts"
import { forEachExpr, isAssignment } from "./exprWalk.ts"
import type { PackModel } from "./packModel.ts"

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
const SCRIPT_SOURCES: ReadonlySet<string> = new Set([
  ...["load", "preload", "load_interactive", "load_threaded_get", "get_resource", "get_script", "get", "get_indexed", "get_meta", "get_ref", "instance_from_id"],
  // A scene's or an animation's stored values, the scripts of its nodes among them (SceneState, Animation).
  ...["get_node_property_value", "get_connection_binds", "track_get_key_value", "method_track_get_params"],
  // A node's resource by a path with a property part (`get_node_and_resource("Holder:script")`).
  "get_node_and_resource",
])

/**
 * Properties an engine object answers with what holds the scripts of its data: PackedScene's `_bundled` (the scene's
 * values, its nodes' scripts among them), the metadata (`__meta__`); and ResourcePreloader's `resources` (as a member
 * or a name, not a variable of the pack's own).
 */
const HOLDING_PROPERTIES: ReadonlySet<string> = new Set(["_bundled", "__meta__"])

/** A preload (or a `preload` by name) of a path that may be a Script: a script, a resource of any type, or one not known. */
const mayPreloadScript = (path: Expr): boolean => path.k !== "str" || !/\.(tscn|scn|png|jpg|jpeg|webp|svg|wav|ogg|mp3|ttf|otf|json|txt|csv)$/i.test(path.value)


const PROPERTY_READS: ReadonlySet<string> = new Set(["get", "get_indexed"])

/** Whether `stmts` may give `name` another value: an assignment to it, or a `var`, `for` or `match` pattern of that name. */
const rebinds = (stmts: ReadonlyArray<Stmt>, name: string): boolean => {
  let found = false
  forEachExpr(stmts, (e) => {
    if (e.k === "bin" && isAssignment(e.op) && e.left.k === "id" && e.left.name === name) found = true
  })
  const walk = (list: ReadonlyArray<Stmt>): void => {
    for (const s of list) {
      if ((s.k === "var" || s.k === "for") && s.name === name) found = true
      if (s.k === "if") for (const b of s.branches) walk(b.body)
      if (s.k === "while" || s.k === "for") walk(s.body)
      if (s.k === "match") for (const b of s.branches) (b.binds.some((x) => x.name === name) ? (found = true) : walk(b.body))
    }
  }
  walk(stmts)
  return found
}

/**
 * The property reads of self by a known name of a member its class declares (`var music_volume`), which Object::get
 * answers from the script instance before any engine property (core/object.cpp): `get("music_volume")`, and `get(k)`
 * in `for k in ["music_volume", "language"]:` whose body never gives `k` another value (an options menu saving its
 * settings). Such a member holds a Script only if code put one there, which counts by its own source; an engine
 * property may hold the scripts of the object's data (a PackedScene's `_bundled`, a nineteenth red team's bypass),
 * and `script` is the script itself. Self only: an object out of sight may carry another class.
 */
const knownNameReads = (roots: Iterable<ClassDecl>): ReadonlySet<Expr> => {
  const found = new Set<Expr>()
  const selfRead = (e: Expr): e is Extract<Expr, { k: "call" }> =>
    e.k === "call" && ((e.callee.k === "id" && PROPERTY_READS.has(e.callee.name)) || (e.callee.k === "member" && e.callee.obj.k === "self" && PROPERTY_READS.has(e.callee.name)))
  const block = (stmts: ReadonlyArray<Stmt>, members: ReadonlySet<string>): void => {
    forEachExpr(stmts, (e) => {
      if (selfRead(e) && e.args[0]?.k === "str" && members.has(e.args[0].value)) found.add(e)
    })
    const loops = (list: ReadonlyArray<Stmt>): void => {
      for (const s of list) {
        if (s.k === "for" && s.iter.k === "array" && s.iter.items.every((x) => x.k === "str" && members.has(x.value)) && !rebinds(s.body, s.name)) {
          forEachExpr(s.body, (e) => {
            if (selfRead(e) && e.args[0]?.k === "id" && e.args[0].name === s.name) found.add(e)
          })
        }
        if (s.k === "if") for (const b of s.branches) loops(b.body)
        if (s.k === "while" || s.k === "for") loops(s.body)
        if (s.k === "match") for (const b of s.branches) loops(b.body)
      }
    }
    loops(stmts)
  }
  const cls = (decl: ClassDecl): void => {
    const members = new Set(decl.vars.map((v) => v.name).filter((name) => name !== "script"))
    for (const f of [...decl.functions, ...decl.vars.flatMap((v) => v.accessors)]) {
      block(f.body, members)
      for (const s of f.body) if (s.k === "nested") cls(s.cls)
    }
    decl.classes.forEach(cls)
  }
  for (const root of roots) cls(root)
  return found
}

/** What the pack's code says about attaching scripts at run time. */
export interface AttachWords {
  /** Some code names `set_script` or `script` (an identifier, a member, a string): a write of a script by that name. */
  readonly attaches: boolean
  /**
   * Some code may hold a Script object: a call of SCRIPT_SOURCES (or its name as a string, for a call by name; not a
   * read of self by a known name that hands back no script, knownNameReads), or a class of the pack named as a value (a global or inner class's name, except before `.new()`).
   */
  readonly holdsScripts: boolean
}

export const attachWords = (roots: Iterable<ClassDecl>, classNames: ReadonlySet<string>): AttachWords => {
  let attaches = false
  let holdsScripts = false
  const named = new Map<string, number>()
  const newed = new Map<string, number>()
  const bump = (m: Map<string, number>, name: string): void => void m.set(name, (m.get(name) ?? 0) + 1)
  const list = [...roots]
  const harmless = knownNameReads(list)
  for (const root of list) {
    walkClass(
      root,
      (e) => {
        if ((e.k === "id" || e.k === "member") && ATTACH.has(e.name)) attaches = true
        // A property path names `script` in any part (`set_indexed("owner:script", s)` attaches one to the owner).
        if (e.k === "str" && e.value.split(":").some((part) => ATTACH.has(part))) attaches = true
        if (e.k === "str" && (SCRIPT_SOURCES.has(e.value) || HOLDING_PROPERTIES.has(e.value) || e.value === "resources")) holdsScripts = true
        if ((e.k === "id" || e.k === "member") && HOLDING_PROPERTIES.has(e.name)) holdsScripts = true
        if (e.k === "member" && e.name === "resources") holdsScripts = true
        if (e.k === "preload" && mayPreloadScript(e.path)) holdsScripts = true
        if (e.k === "call" && (e.callee.k === "id" || e.callee.k === "member") && SCRIPT_SOURCES.has(e.callee.name) && !harmless.has(e)) holdsScripts = true
        if (e.k === "id" && classNames.has(e.name)) bump(named, e.name)
        if (e.k === "member" && e.name === "new" && e.obj.k === "id" && classNames.has(e.obj.name)) bump(newed, e.obj.name)
      },
      () => {},
    )
  }
  for (const [name, count] of named) if (count > (newed.get(name) ?? 0)) holdsScripts = true
  return { attaches, holdsScripts }
}

/** Object's methods that call a method of their receiver by the name given first. */
export const NAME_DISPATCHERS: ReadonlySet<string> = new Set(["call", "callv", "call_deferred"])

const SELF_DISPATCHING = new WeakMap<PackModel, boolean>()

/** Whether some call of the pack's code passes `test`, once per pack and test. */
const someCall = (model: PackModel, memo: WeakMap<PackModel, boolean>, test: (e: Extract<Expr, { k: "call" }>) => boolean): boolean => {
  const known = memo.get(model)
  if (known !== undefined) return known
  let found = false
  for (const cls of model.classes()) {
    const decl = model.decl(cls)
    for (const f of [...(decl?.functions ?? []), ...(decl?.vars ?? []).flatMap((v) => v.accessors)]) {
      forEachExpr(f.body, (e) => {
        if (!found && e.k === "call" && test(e)) found = true
      })
    }
  }
  memo.set(model, found)
  return found
}

/** Whether some code of the pack calls a method by a name that is not a literal (`call(n)`, `h.callv(n, a)`), on any object. */
export const dispatchesByName = (model: PackModel): boolean =>
  someCall(model, DISPATCHING, (e) => (e.callee.k === "id" || e.callee.k === "member") && NAME_DISPATCHERS.has(e.callee.name) && e.args[0] !== undefined && e.args[0].k !== "str")

const DISPATCHING = new WeakMap<PackModel, boolean>()

/**
 * Whether some class of the pack calls a method of self by a name that is not a literal (`call(n, a)`,
 * `self.callv(n, args)`, `funcref(self, n)`, `connect(s, self, n)`): where its script is given an engine object, that
 * object's own methods are reachable so.
 */
export const dispatchesOnSelfByName = (model: PackModel): boolean => {
  const named = (e: Expr | undefined): boolean => e !== undefined && e.k !== "str"
  return someCall(model, SELF_DISPATCHING, (e) => {
    const onSelf = e.callee.k === "id" || (e.callee.k === "member" && e.callee.obj.k === "self")
    const name = e.callee.k === "id" || e.callee.k === "member" ? e.callee.name : ""
    return (onSelf && NAME_DISPATCHERS.has(name) && named(e.args[0])) || (e.callee.k === "id" && name === "funcref" && e.args[0]?.k === "self" && named(e.args[1])) || (onSelf && name === "connect" && e.args[1]?.k === "self" && named(e.args[2]))
  })
}
