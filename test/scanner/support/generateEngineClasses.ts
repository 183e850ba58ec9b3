// Regenerates adapters/scanner/gdscript/engine-classes.json: the name of every class and singleton of
// the engine's class reference (doc/classes/*.xml and modules/*/doc_classes/*.xml of a checkout), for
// Godot 3 and 4. A script's class_name never stands for one of these (the engine's own wins, and it
// refuses a class_name that names a native class), so the analysis never lets a pack class shadow them.
//
//   node test/scanner/support/generateEngineClasses.ts <godot-3.x checkout> <godot-4.x checkout> [out.json]
//
// The Godot 4 fork the committed table comes from (docs/scanner.md#dispatch-table) renamed GDScript to
// VoyScript; its names are mapped back.
import { writeFileSync } from "node:fs"
import { classOfFile, classReferenceFiles } from "./classReference.ts"

const RENAMED: Readonly<Record<string, string>> = { VoyScript: "GDScript", "@VoyScript": "@GDScript", VoyScriptSyntaxHighlighter: "GDScriptSyntaxHighlighter" }

const classNames = (root: string): ReadonlyArray<string> =>
  [...new Set(classReferenceFiles(root).map(classOfFile).filter((cls) => !cls.startsWith("@")).map((cls) => RENAMED[cls] ?? cls))].sort()

const [godot3, godot4, out = "adapters/scanner/gdscript/engine-classes.json"] = process.argv.slice(2)
if (godot3 === undefined || godot4 === undefined) {
  console.error("usage: node test/scanner/support/generateEngineClasses.ts <godot-3.x checkout> <godot-4.x checkout> [out.json]")
  process.exit(2)
}
writeFileSync(out, `${JSON.stringify({ 3: classNames(godot3), 4: classNames(godot4) })}\n`)
