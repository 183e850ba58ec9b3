import { type BinaryResource, readInternalClass, readProperties, subResourceId } from "./binaryResource.ts"

export interface EmbeddedScript {
  /** Sub-resource id: `GDScript_k3x9a` (Godot 4 named ids) or a number (Godot 3). */
  readonly subResource: string
  readonly source: string
}

export interface BinaryScripts {
  readonly scripts: ReadonlyArray<EmbeddedScript>
  /** Class of every internal resource, for checks that care about resource types (native, non-GDScript). */
  readonly classes: ReadonlyArray<{ readonly subResource: string; readonly className: string }>
}

/**
 * Finds built-in GDScript sub-resources and returns their `script/source`. Built-in scripts are
 * never tokenized by the exporter, so this source text is what the engine runs.
 */
export const readBinaryScripts = async (resource: BinaryResource): Promise<BinaryScripts> => {
  const scripts: Array<EmbeddedScript> = []
  const classes: Array<{ subResource: string; className: string }> = []
  for (const internal of resource.internals) {
    const className = await readInternalClass(resource, internal)
    classes.push({ subResource: subResourceId(internal), className })
    if (className !== "GDScript") continue
    const props = await readProperties(resource, internal, (name) => (name === "script/source" ? 0 : null))
    const source = props.get("script/source")
    if (typeof source === "string") scripts.push({ subResource: subResourceId(internal), source })
  }
  return { scripts, classes }
}
