import { type BinarySceneFacts, bundledSceneFacts } from "./binaryScene.ts"
import { type DataArg, type DataResource, type ScriptReference, UNREAD } from "./SceneFacts.ts"
import { parseResourceCall } from "./textResource.ts"
import { SKIPPED, type Value } from "./variant.ts"
import { stringOf, type VNode } from "./variantText.ts"

// A PackedScene's `_bundled` dictionary written in a text resource (a scene nested as a sub-resource, an
// `Object(PackedScene, …)` value): read as the same values a binary resource holds (variant.ts), so its node and
// connection records go through the one reading of them (binaryScene.ts bundledSceneFacts). The text parser keeps
// every number of such a value (variantText.ts).

/** How the text names the resources its values refer to: an `[ext_resource]`'s path and a sub-resource's class, by id. */
export interface TextResources {
  readonly external: (id: string) => string | undefined
  readonly subType: (id: string) => string | undefined
}

const INT_ARRAY = /^(PoolIntArray|PackedInt32Array|PackedInt64Array)$/

export const textBundleFacts = (bundled: VNode, resources: TextResources): BinarySceneFacts => {
  // Object references as indexes into this table of the text's `ExtResource`/`SubResource` calls.
  const refs: Array<{ readonly kind: "Ext" | "Sub"; readonly id: string }> = []
  const ints = (items: ReadonlyArray<VNode>): Value => (items.every((i) => i.k === "num") ? Int32Array.from(items, (i) => Number(i.k === "num" ? i.text : NaN)) : SKIPPED)
  const value = (node: VNode): Value => {
    const text = stringOf(node)
    if (text !== null) return text
    switch (node.k) {
      case "num":
        return Number(node.text)
      case "ident":
        return node.name === "true" ? true : node.name === "false" ? false : node.name === "null" ? null : SKIPPED
      case "array":
        return node.items.map(value)
      case "dict":
        return new Map(node.items.flatMap((p) => (p.k === "pair" ? [[value(p.key), value(p.value)] as const] : [])))
      case "call": {
        if (INT_ARRAY.test(node.name)) return ints(node.args)
        if (/^(Array|Pool\w*Array|Packed\w*Array)$/.test(node.name)) return node.args.map(value)
        const ref = parseResourceCall(node)
        if (ref === null) return SKIPPED
        refs.push(ref)
        return { _tag: ref.kind === "Ext" ? "External" : "Internal", index: refs.length - 1 }
      }
      default:
        return SKIPPED
    }
  }
  const dict = value(bundled)
  // The records of a plain array of numbers are the same to the engine (Variant converts it to the packed array).
  if (dict instanceof Map) for (const key of ["nodes", "conns"]) {
    const v = dict.get(key)
    if (Array.isArray(v) && v.every((n) => typeof n === "number")) dict.set(key, Int32Array.from(v as ReadonlyArray<number>))
  }
  const refOf = (v: Value | undefined): { readonly kind: "Ext" | "Sub"; readonly id: string } | undefined =>
    typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Map) && !ArrayBuffer.isView(v) && "_tag" in v && "index" in v ? refs[v.index] : undefined
  const toScript = (v: Value | undefined): ScriptReference | null => {
    const ref = refOf(v)
    if (ref === undefined) return null
    if (ref.kind === "Sub") return { _tag: "BuiltIn", subResource: ref.id }
    const path = resources.external(ref.id)
    return path === undefined ? null : { _tag: "File", path }
  }
  const dataRef = (v: Value): DataArg => {
    const ref = refOf(v)
    const path = ref?.kind === "Ext" ? resources.external(ref.id) : undefined
    const type = ref?.kind === "Sub" ? resources.subType(ref.id) : undefined
    const resource: DataResource | null = path !== undefined ? { _tag: "External", path } : type !== undefined ? { _tag: "Internal", type } : null
    return resource === null ? UNREAD : { resource }
  }
  return bundledSceneFacts(dict, toScript, dataRef)
}
