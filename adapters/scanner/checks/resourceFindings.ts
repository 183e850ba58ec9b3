import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import { finding } from "../findings.ts"
import { indexPolicy } from "../gdscript/PolicyIndex.ts"
import type { Policy } from "../policy/Policy.ts"
import type { SceneNodeType } from "../resource/SceneFacts.ts"
import { isNativeByName } from "./nameChecks.ts"

// Findings about what a scene or resource declares rather than what its scripts say: nodes of a
// banned class, and resources that carry native code or another language.

/** Native code or bindings to it. */
const NATIVE_RESOURCE_CLASSES: ReadonlySet<string> = new Set(["GDNativeLibrary", "NativeScript", "GDExtension", "PluginScript"])

/** Scripts in another language. */
const OTHER_LANGUAGE_RESOURCE_CLASSES: ReadonlySet<string> = new Set(["CSharpScript", "VisualScript"])

/** A node whose type is a banned class (`[node type="HTTPRequest"]`): the scene uses the API without a line of code. */
export const bannedNodeFindings = (policy: Policy, nodes: ReadonlyArray<SceneNodeType>, file: string, storedPath: string): ReadonlyArray<Finding> => {
  const identifiers = indexPolicy(policy).identifiers
  return nodes.flatMap((node) =>
    (identifiers.get(node.type) ?? []).map((entry) =>
      finding({
        rule: RULE.bannedApi,
        file,
        storedPath,
        line: node.line,
        column: node.column,
        pattern: entry.pattern,
        severity: entry.severity,
        message: `Node "${node.name}" is a ${node.type}: ${entry.rationale} Remove the node; see ${entry.docs} (policy ${entry.id}).`,
      }),
    ),
  )
}

export const resourceClassFindings = (
  policy: Policy,
  classes: ReadonlyArray<{ readonly subResource: string; readonly className: string }>,
  file: string,
  storedPath: string,
): ReadonlyArray<Finding> =>
  classes.flatMap(({ subResource, className }) => {
    const native = NATIVE_RESOURCE_CLASSES.has(className)
    // A visual script's node (VisualScriptPropertyGet…) is part of another language too, and an object whose methods
    // the number table leaves out (engine-number-returns.json: its `get_index()` is a String).
    if (!native && !OTHER_LANGUAGE_RESOURCE_CLASSES.has(className) && !className.startsWith("VisualScript")) return []
    // A .gdns/.gdnlib is already reported by its name; one finding per file is enough.
    if (native && isNativeByName(storedPath, policy)) return []
    const where = subResource === "" ? `${file} is a ${className} resource` : `${file} contains a ${className} sub-resource (${subResource})`
    return [
      finding({
        rule: native ? RULE.nativeCode : RULE.nonGdscript,
        file,
        storedPath,
        pattern: className,
        message: native ? `${where}: it binds native code, which cannot be reviewed. Remove it.` : `${where}: creator scripts must be written in GDScript.`,
      }),
    ]
  })
