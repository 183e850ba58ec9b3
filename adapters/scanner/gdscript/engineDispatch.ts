import table from "./engine-dispatch.json" with { type: "json" }
import type { Policy } from "../policy/Policy.ts"
import type { Grammar } from "./tokenizer.ts"

// The engine APIs that call a method, read or write a property, create a class or fetch a singleton
// by name: engine-dispatch.json, generated from Godot's class reference
// (test/scanner/support/generateDispatchTable.ts), plus the policy's own `dispatchers`.

export type DispatchKind = "method" | "property" | "class" | "singleton" | "target" | "member"

export interface DispatchEntry {
  readonly class: string
  /** The method, or the class itself for a constructor (`Callable(object, method)`). */
  readonly method: string
  readonly kind: DispatchKind
  /** Argument index holding the name (absent for `target`: the name comes from data, e.g. JSON-RPC). */
  readonly name?: number
  /** Argument index holding the object the name is resolved on (absent: the receiver itself). */
  readonly target?: number
  /**
   * Argument index holding the name of the engine class whose static method is called instead
   * (`ClassDB.class_call_static(class, method, …)`): a constant class is judged as that class's method.
   */
  readonly targetClass?: number
  /**
   * Another class (not Object) has a method of the same name (`start`, `create`): the entry then
   * applies only where the receiver is known to be `class`, never on a receiver of unknown type.
   */
  readonly shared?: true
  /** The class is Node or one of its subclasses (from the class reference's `inherits`): a node of the scene tree may have this method. */
  readonly node?: true
}

/** Dispatch APIs whose call passes on the arguments written after the name; the others' (below) come in one array, or are out of sight. */
export const ARGUMENTS_FOLLOW: ReadonlySet<string> = new Set(["call", "call_deferred", "call_thread_safe", "call_deferred_thread_group", "rpc", "rpc_id", "rpc_unreliable", "rpc_unreliable_id", "call_group", "call_group_flags", "interpolate_callback", "interpolate_deferred_callback", "add_do_method", "add_undo_method", "call_recursive", "class_call_static", "broadcast", "start"])
export const ARGUMENTS_IN_ARRAY: ReadonlySet<string> = new Set(["callv", "propagate_call"])
/** Entries (`Class.method`) of a name in ARGUMENTS_FOLLOW whose arguments come in one array: 4.x `MultiplayerAPI.rpc(peer, object, method, arguments)`. */
export const ARGUMENTS_IN_ARRAY_OF: ReadonlySet<string> = new Set(["MultiplayerAPI.rpc"])

/** Classes whose dispatch methods apply to any receiver (every object has them) or need none. */
export const UNIVERSAL_CLASSES: ReadonlySet<string> = new Set(["Object", "@GDScript", "Node"])

export interface DispatchIndex {
  /** By method (or constructor) name. */
  readonly byName: ReadonlyMap<string, ReadonlyArray<DispatchEntry>>
  /** Names of Object's own dispatch methods (`call`, `callv`, `get`, …), for nested dispatch. */
  readonly objectMethods: ReadonlySet<string>
}

const policyCache = new WeakMap<Policy, Map<Grammar, DispatchIndex>>()

const build = (entries: ReadonlyArray<DispatchEntry>): DispatchIndex => {
  const byName = new Map<string, Array<DispatchEntry>>()
  for (const e of entries) {
    const list = byName.get(e.method) ?? []
    if (!list.some((x) => x.class === e.class && x.kind === e.kind && x.name === e.name && x.target === e.target)) list.push(e)
    byName.set(e.method, list)
  }
  const objectMethods = new Set(entries.filter((e) => e.class === "Object" && e.target === undefined).map((e) => e.method))
  return { byName, objectMethods }
}

/** The policy's dispatchers in the table's shape (`call` → Object.call, `ClassDB.instance` → that class only). */
const fromPolicy = (policy: Policy): ReadonlyArray<DispatchEntry> =>
  policy.dispatchers.flatMap((d): ReadonlyArray<DispatchEntry> => {
    const dot = d.function.lastIndexOf(".")
    const cls = dot < 0 ? (d.function === "Callable" ? "Callable" : "Object") : d.function.slice(0, dot)
    const method = d.function.slice(dot + 1)
    const target = d.targetArgument === undefined ? {} : { target: d.targetArgument }
    const out: Array<DispatchEntry> = []
    if (d.nameArgument !== undefined) out.push({ class: cls, method, kind: d.setter === true || method === "get" ? "property" : "method", name: d.nameArgument, ...target })
    if (d.classArgument !== undefined) out.push({ class: cls, method, kind: method === "get_singleton" ? "singleton" : "class", name: d.classArgument })
    return out
  })

export const dispatchIndex = (grammar: Grammar | null, policy: Policy): DispatchIndex => {
  let perPolicy = policyCache.get(policy)
  if (perPolicy === undefined) {
    perPolicy = new Map()
    policyCache.set(policy, perPolicy)
  }
  const key: Grammar = grammar ?? 4
  const hit = perPolicy.get(key)
  if (hit !== undefined) return hit
  const base = grammar === 3 ? table.godot3 : grammar === 4 ? table.godot4 : [...table.godot3, ...table.godot4]
  const built = build([...(base as ReadonlyArray<DispatchEntry>), ...fromPolicy(policy)])
  perPolicy.set(key, built)
  return built
}
