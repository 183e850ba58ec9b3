// Regenerates adapters/scanner/gdscript/engine-virtuals.json: the virtual methods of the engine's class
// reference (`qualifiers="virtual"`) whose names do not start with `_`, for Godot 3 and 4. The engine calls
// such a method of a script by name with values of its own (Control.drop_data gets what the player drags,
// AnimationNode.process the engine's times), so the analysis never takes its callers from the pack alone.
// Names starting with `_` are all treated that way without a table.
//
//   node test/scanner/support/generateEngineVirtuals.ts <godot-3.x checkout> <godot-4.x checkout> [out.json]
import { readFileSync, writeFileSync } from "node:fs"
import { classReferenceFiles } from "./classReference.ts"

const virtuals = (root: string): ReadonlyArray<string> => {
  const names = new Set<string>()
  for (const file of classReferenceFiles(root)) {
    for (const m of readFileSync(file, "utf8").matchAll(/<method name="([a-z][a-z0-9_]*)" qualifiers="virtual[^"]*"/g)) names.add(m[1] ?? "")
  }
  return [...names].sort()
}

const [godot3, godot4, out = "adapters/scanner/gdscript/engine-virtuals.json"] = process.argv.slice(2)
if (godot3 === undefined || godot4 === undefined) {
  console.error("usage: node test/scanner/support/generateEngineVirtuals.ts <godot-3.x checkout> <godot-4.x checkout> [out.json]")
  process.exit(2)
}
writeFileSync(out, `${JSON.stringify({ 3: virtuals(godot3), 4: virtuals(godot4) })}\n`)
