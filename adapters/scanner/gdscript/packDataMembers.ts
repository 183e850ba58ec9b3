import type { Expr, FunctionDecl, Stmt } from "./ast.ts"
import { forEachExpr, isAssignment, parentsOf, PUTS_INTO, returnedExprs } from "./exprWalk.ts"
import type { ClassRef, PackModel } from "./packModel.ts"
import { holdsNoPack, isNumberLike, type Val, VALUE_TYPES } from "./values.ts"

// A member that holds the pack's own data (`items = parse_json(…res://data/items.json…)`: packDataReads.ts) keeps
// that provenance wherever it is read (its class, another script through the autoload's name, a typed reference,
// a getter returning it) only while it can hold nothing else:
// - its class gives it only that data, or an empty `{}`/`[]` or null to start with (no `+=`);
// - every other writer of it in the pack is in sight and writes that data too (memberWrites.ts: other scripts,
//   subclasses, `set("items", …)`, writes by a name that is not constant, scenes and resources setting it);
// - no code of the pack writes into a container that may be that data: a Dictionary or Array is shared, not
//   copied, so `ItemDB.items["sword"] = …`, `ItemDB.get_item(id)["desc"] = …`, `var it = ItemDB.items.sword`
//   then `it.desc = …`, or `ItemDB.items.merge(…)` change what every reader sees. A write is known to go
//   elsewhere only when what it writes into is an object that is no container, or a variable itself that holds
//   a container the script built (not data read at run time).
// Otherwise the member's value is data read at run time from anywhere (the error of BBCode or a load path from it).
// A member confined to its class (no code of the pack reads a member of that name on another object or names it in
// a string, and no function returns an expression that reads it) is read only by its class's code, as a local is:
// there, as before, the values its class gives it are what it holds (the analysis of a local does not follow a
// Dictionary shared by reference either: docs/scanner.md, Limits).

/** Data read from files of the pack, and nothing else. */
export const isPackData = (v: Val): boolean => v.t === "unknown" && v.external === true && v.packData !== undefined && v.host !== true

/** A value that no longer counts as the pack's data: data read at run time. */
export const fromAnywhere = (v: Val): Val => {
  if (v.t !== "unknown") return v
  const { packData: _files, dataSel: _sel, ...rest } = v
  return { ...rest, external: true }
}

/** Every body of code of the pack's classes: each class's member and constant initialisers (`fn` null), its functions and accessors. */
const classBodies = (model: PackModel): ReadonlyArray<{ readonly body: ReadonlyArray<Stmt>; readonly cls: ClassRef; readonly fn: FunctionDecl | null }> =>
  model.classes().flatMap((cls) => {
    const decl = model.decl(cls)
    if (decl === null) return []
    const classExprs: ReadonlyArray<Stmt> = [...decl.vars.flatMap((v) => (v.init === null ? [] : [v.init])), ...decl.consts.map((c) => c.init)].map((e) => ({ k: "expr", expr: e, at: e.at }) as Stmt)
    return [{ body: classExprs, cls, fn: null }, ...[...decl.functions, ...decl.vars.flatMap((v) => v.accessors)].map((f) => ({ body: f.body, cls, fn: f }))]
  })

/** A start that holds no string: `{}`, `[]`, null, an empty container made by its constructor (`PoolStringArray()`). */
export const holdsNothing = (e: Expr | null): boolean =>
  e === null || (e.k === "str" && e.value === "") || (e.k === "dict" && e.entries.length === 0) || (e.k === "array" && e.items.length === 0) || (e.k === "const" && e.value === null) || (e.k === "call" && e.args.length === 0 && e.callee.k === "id" && EMPTY_MADE.has(e.callee.name))

const EMPTY_MADE: ReadonlySet<string> = new Set(["Array", "Dictionary", "PoolStringArray", "PackedStringArray"])

const CONTAINER_CLASSES: ReadonlySet<string> = new Set(["Dictionary", "Array"])

/** Whether a container written into (its expression and value) is provably not data read at run time; `fresh`: trust `noPack`. */
const writesElsewhere = (target: Expr, v: Val, fresh = false): boolean => {
  // A container of no pack data (a save parsed from user://, a literal): a write into it reaches no reader of the pack's.
  if (fresh && v.t === "unknown" && v.noPack === true) return true
  // A new container made from the data (`starter.duplicate()`): its readers see the write, which its value holds.
  if (v.t === "unknown" && v.copy === true) return true
  switch (v.t) {
    case "own":
    case "script":
    case "guard":
    case "lit":
    case "str":
    case "method":
      return true
    case "inst":
      if (!CONTAINER_CLASSES.has(v.cls)) return true
      break
    case "unknown":
      if (v.external === true || v.plain !== true) return false
      break
  }
  // A container the script built, written into through the variable that holds it.
  const variable = target.k === "id" || (target.k === "member" && target.obj.k === "self")
  return variable && !(v.t === "unknown" && v.external === true)
}

/** What a write into a container writes: `v` of `c[k] = v`, `c.k = v`, the arguments of `c.append(v)`; with the container, and whether it is compound (`c.k += v`). */
interface ContainerWrite {
  readonly target: Expr
  readonly values: ReadonlyArray<Expr>
  /** The key of `c[k] = v` (a Dictionary's new key is text its readers get too); a `c.k = v` key is a name. */
  readonly key?: Expr
  readonly compound: boolean
}

/**
 * Compound assignments no String takes in either engine (a String has `+`, `%` and, in 4.x, `*`): what they write is a
 * number or a vector, which puts no text in (a fifty-sixth hunt's `party[0]["hp"] -= attack["power"]`).
 */
const NUMBER_OPS: ReadonlySet<string> = new Set(["-=", "/=", "&=", "|=", "^=", "<<=", ">>="])

const writesInto = (body: ReadonlyArray<Stmt>): ReadonlyArray<ContainerWrite> => {
  const { all } = parentsOf(body)
  const found: Array<ContainerWrite> = []
  for (const e of all) {
    if (e.k === "bin" && NUMBER_OPS.has(e.op)) continue
    if (e.k === "bin" && isAssignment(e.op) && e.left.k === "index") found.push({ target: e.left.obj, values: [e.right], key: e.left.index, compound: e.op !== "=" })
    else if (e.k === "bin" && isAssignment(e.op) && e.left.k === "member") found.push({ target: e.left.obj, values: [e.right], compound: e.op !== "=" })
    else if (e.k === "call" && e.callee.k === "member" && PUTS_INTO.has(e.callee.name)) found.push({ target: e.callee.obj, values: e.args, compound: false })
  }
  return found
}

/**
 * Whether a function writes something `changes` accepts into a container that may be data read at run time or a value
 * the analysis lost, reached by any name: a parameter given it by a signal, `call`, `callv`, a funcref or a setter, an
 * Array holding it, a shallow `duplicate()`, `get("levels")` (a twenty-seventh red team's changes of a member's pack
 * data), or a function it is handed to (a twenty-eighth red team's name put into an Array of folder listing entries).
 * `evaluate` gives an expression's value in the function.
 */
export const writesIntoRunTimeData = (f: FunctionDecl, evaluate: (e: Expr) => Val, changes: (e: Expr) => boolean, builtHere: (target: Expr) => boolean): boolean =>
  writesInto(f.body).some(({ target, values }) => mayHoldData(evaluate(target)) && values.some(changes) && !builtHere(target))

/**
 * Data read at run time (the pack's, or what a copy or a container of it gives: `levels.duplicate()[0]`), a value the
 * analysis lost, or an Array or Dictionary known by its type only (`func fix(a: Array)`: what it is given may be the
 * data, a fifty-fifth red team's; a local only ever given literals is the caller's `builtHere`).
 */
const mayHoldData = (v: Val): boolean => (v.t === "unknown" && v.copy !== true && (v.external === true || (v.plain !== true && v.json !== true && v.insts === undefined))) || (v.t === "inst" && CONTAINER_CLASSES.has(v.cls))

/**
 * A value written that puts no string into what it is written into: a number, a bool, null or a vector (`timer.wait_time
 * = 2.0` on a member the analysis lost, a thirty-sixth hunt's: the pack's data it might be would gain no text). A
 * compound write (`c.k += v`) is read as one that may, and so is a key that is text (`it["user://x.tres"] = 1` adds a
 * key a loop over the Dictionary hands out: a thirty-seventh red team's).
 */
const noText = (v: Val): boolean => isNumberLike(v) || (v.t === "lit" && typeof v.value !== "string") || (v.t === "inst" && VALUE_TYPES.has(v.cls))

/** A key that adds no text a reader of the keys could use as a path or a tag: a number, or constant names of letters, digits and `_` (as `c.k = v` writes). */
const plainKey = (v: Val): boolean => noText(v) || (v.t === "str" && v.values.every((k) => /^[A-Za-z0-9_]*$/.test(k)))

/**
 * Whether some code of the pack writes something that may hold text into a container that may be data read at run
 * time (see above); `evaluate` gives an expression's value in a function of a class (null: the class's own expressions),
 * `builtHere` whether a member written into always holds a container its class built (Evaluator.builtHere).
 */
export const writesIntoData = (model: PackModel, evaluate: (e: Expr, cls: ClassRef, fn: FunctionDecl | null) => Val, builtHere: (e: Expr, cls: ClassRef, fn: FunctionDecl | null) => boolean): boolean => {
  const bodies = classBodies(model)
  // A container of no pack data (noPack) stays one only where no code puts what may be a container of the pack's data
  // into any container, as a value or a key: the receiver may be the noPack container itself by a way the analysis does
  // not tie to its name (a thirty-ninth red team's `save.front().append(Global.items)`, `save.get("a")["k"] = …`, an
  // alias through a conditional, `as` or a `match` binding).
  const fresh = !bodies.some(({ body, cls, fn }) =>
    writesInto(body).some(({ target, values, key }) => mayBeContainer(evaluate(target, cls, fn)) && [...values, ...(key === undefined ? [] : [key])].some((x) => mayBePackContainer(evaluate(x, cls, fn)))),
  )
  return bodies.some(({ body, cls, fn }) =>
    writesInto(body).some(
      ({ target, values, key, compound }) =>
        !writesElsewhere(target, evaluate(target, cls, fn), fresh) && !builtHere(target, cls, fn) && (compound || values.length === 0 || !values.every((x) => noText(evaluate(x, cls, fn))) || (key !== undefined && !plainKey(evaluate(key, cls, fn)))),
    ),
  )
}

/**
 * The pack's data files some code of the pack writes into, through any name: a write (`c[k] = v`, `c.k = v`,
 * `c.append(v)`, a compound one) of something that may hold text into a container whose value is their data.
 */
export const packDataWrittenInto = (
  model: PackModel,
  evaluate: (e: Expr, cls: ClassRef, fn: FunctionDecl | null) => Val,
  localsRead: (cls: ClassRef, fn: FunctionDecl) => ReadonlyArray<Val>,
  ownTranslation: (target: Expr, value: Expr) => boolean,
  builtHere: (e: Expr, cls: ClassRef, fn: FunctionDecl | null) => boolean,
): ReadonlySet<string> => {
  const files = new Set<string>()
  const add = (v: Val): void => {
    if (v.t === "unknown" && v.packData !== undefined) for (const f of v.packData) files.add(f)
  }
  for (const { body, cls, fn } of classBodies(model)) {
    let aliased = false
    for (const { target, values, key, compound } of writesInto(body)) {
      // A number added (`progress[id] += 1`) or written puts no text in, nor does a translation of its own part.
      const noValueText = values.length > 0 && values.every((x) => noText(evaluate(x, cls, fn)) || (!compound && ownTranslation(target, x)))
      if (noValueText && (key === undefined || plainKey(evaluate(key, cls, fn)))) continue
      // A container the script built (`cards[c["id"]] = c` of `var cards = {}`), or a new one made from the data
      // (`starter.duplicate()`): no container of the data is written.
      if (builtHere(target, cls, fn)) continue
      const v = evaluate(target, cls, fn)
      if (v.t === "unknown" && v.copy === true) continue
      add(v)
      // A key alone that is the pack's own data (`progress[q.id] = 0` of a quest log) counts only for a container known
      // to be the data; another text key (`a["[img]…"] = 0` through `d as Dictionary`: a forty-eighth red team's) does.
      if (noValueText && (key === undefined || plainKey(evaluate(key, cls, fn)) || isPackData(evaluate(key, cls, fn)))) continue
      // A container the analysis cannot tell from a local of the pack's data in the same function (`d as Array`,
      // `[d][0]`, `d.slice(0, 0)`, a helper's return: a forty-seventh red team's): that function's data is written.
      aliased ||= mayAlias(v)
    }
    if (aliased && fn !== null) for (const v of localsRead(cls, fn)) add(v)
  }
  return files
}

/** A container that may be one of the pack's data under another name: one the analysis lost, or an Array or Dictionary of no known start. */
const mayAlias = (v: Val): boolean =>
  (v.t === "unknown" && (v.plain !== true || v.external === true) && v.noPack !== true && v.copy !== true && v.prefix === undefined && v.suffix === undefined) || (v.t === "inst" && (CONTAINER_CLASSES.has(v.cls) || v.cls === "PoolStringArray"))

/**
 * What may be, or hold, a container of the pack's data: anything but a constant, a number, text (built at run time
 * too) or a `noPack` container. An object may hold it in a member or its metadata (a forty-second red team's
 * `save.front().append(Global)`, then `save[0][0]["items"]["gem"]["desc"] = …` wrote into Global.items).
 */
const mayBePackContainer = (v: Val): boolean =>
  !holdsNoPack(v) && !noText(v) && v.t !== "str" && v.t !== "lit" && !(v.t === "unknown" && (v.prefix !== undefined || v.suffix !== undefined)) && !(v.t === "inst" && TEXT_CLASSES.has(v.cls))

const TEXT_CLASSES: ReadonlySet<string> = new Set(["String", "StringName", "NodePath"])

/** What may be an Array or a Dictionary (a value the analysis lost included): not self, a class of the pack, an engine object of another class, a constant. */
const mayBeContainer = (v: Val): boolean => v.t === "unknown" || (v.t === "inst" && CONTAINER_CLASSES.has(v.cls))

const LEAVING = new WeakMap<PackModel, ReadonlySet<string>>()

/**
 * The names read (as `name` or `x.name`) in some `return` of the pack's functions, and those a string of its code
 * names as a property (`set("quests", v)`, `get("quests")`, `self["quests"]`, the first part of `"quests:0"`).
 */
const leavingNames = (model: PackModel): ReadonlySet<string> => {
  const known = LEAVING.get(model)
  if (known !== undefined) return known
  const names = new Set<string>()
  for (const cls of model.classes()) {
    const decl = model.decl(cls)
    if (decl === null) continue
    const classExprs = [...decl.vars.flatMap((v) => (v.init === null ? [] : [v.init])), ...decl.consts.map((c) => c.init), ...decl.extra].map((e) => ({ k: "expr", expr: e, at: e.at }) as Stmt)
    const bodies = [classExprs, ...[...decl.functions, ...decl.vars.flatMap((v) => v.accessors)].map((f) => f.body)]
    for (const body of bodies) {
      forEachExpr(body, (e) => {
        if (e.k === "str") names.add(e.value.split(":").find((p) => p !== "") ?? e.value)
      })
      const returned = returnedExprs(body).flatMap((e) => (e === null ? [] : [{ k: "expr", expr: e, at: e.at } as Stmt]))
      forEachExpr(returned, (e) => {
        if (e.k === "id" || e.k === "member") names.add(e.name)
      })
    }
  }
  LEAVING.set(model, names)
  return names
}

/** Whether only its class's code reads or writes a member of that name: no other object's by name, no string of the code names it, and no function returns it. */
export const confined = (model: PackModel, name: string): boolean => !model.readElsewhere(name) && !leavingNames(model).has(name)
