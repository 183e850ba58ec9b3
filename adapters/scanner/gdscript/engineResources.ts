import classes from "./engine-classes.json" with { type: "json" }
import table from "./engine-resources.json" with { type: "json" }
import type { Grammar } from "./tokenizer.ts"

// The engine classes whose objects are Resources (engine-resources.json, listed by Godot 3.2.3 itself through
// test/scanner/support/generateEngineResources.ts): each has a `resource_path`, and an object given another
// resource's path there stands in the engine's resource cache for that resource (resource-path-takeover). For a
// Godot 4 pack a class Godot 3 does not know may be one too (its Resources are not listed here).

const RESOURCES: ReadonlySet<string> = new Set(table[3])
const GODOT3_CLASSES: ReadonlySet<string> = new Set(classes[3])

/** Whether an object of engine class `cls` may be a Resource in the grammar's engine. */
export const mayBeEngineResource = (grammar: Grammar, cls: string): boolean => RESOURCES.has(cls) || (grammar === 4 && !GODOT3_CLASSES.has(cls))
