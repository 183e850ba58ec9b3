// Regenerates adapters/scanner/gdscript/engine-globals.json: the functions a bare call names before any
// method of the script's class, for Godot 3 and 4. Godot 3's tokenizer reads the names of @GDScript's
// functions as built-in function tokens (gdscript_tokenizer.cpp), so `load(p)` in a class extending
// ConfigFile is the global load, never ConfigFile.load; Godot 4's analyzer looks a bare call up among the
// GDScript utility functions (@GDScript) and the Variant utility functions (@GlobalScope) before the
// class's methods (gdscript_analyzer.cpp reduce_call). Every other bare call is a method of `self`.
//
//   node test/scanner/support/generateEngineGlobals.ts <godot-3.x checkout> <godot-4.x checkout> [out.json]
//
// The Godot 4 fork the committed table comes from renamed @GDScript to @VoyScript.
import { readFileSync, writeFileSync } from "node:fs"
import { classOfFile, classReferenceFiles } from "./classReference.ts"
import { ADDED_AFTER_3_2_3 } from "./godot3Builtins.ts"

const GLOBAL_CLASSES: Readonly<Record<"3" | "4", ReadonlySet<string>>> = { 3: new Set(["@GDScript"]), 4: new Set(["@GDScript", "@VoyScript", "@GlobalScope"]) }

const globals = (root: string, grammar: "3" | "4"): ReadonlyArray<string> => {
  const names = new Set<string>()
  for (const file of classReferenceFiles(root)) {
    if (!GLOBAL_CLASSES[grammar].has(classOfFile(file))) continue
    for (const m of readFileSync(file, "utf8").matchAll(/<method name="([A-Za-z_][A-Za-z0-9_]*)"/g)) names.add(m[1] ?? "")
  }
  // A 3.x name 3.2.3 lacks is a method of the script there (godot3Builtins.ts): not taken as the built-in.
  if (grammar === "3") for (const name of ADDED_AFTER_3_2_3) names.delete(name)
  return [...names].sort()
}

const [godot3, godot4, out = "adapters/scanner/gdscript/engine-globals.json"] = process.argv.slice(2)
if (godot3 === undefined || godot4 === undefined) {
  console.error("usage: node test/scanner/support/generateEngineGlobals.ts <godot-3.x checkout> <godot-4.x checkout> [out.json]")
  process.exit(2)
}
writeFileSync(out, `${JSON.stringify({ 3: globals(godot3, "3"), 4: globals(godot4, "4") })}\n`)
