// Regenerates adapters/scanner/gdscript/engine-node-classes.json: every Godot 3 engine class that is Node or inherits
// it (ClassDB.is_parent_class of the engine binary), so a connection's emitter built by `Button.new()` is known to be
// a node, whose signals are the Node classes' (engineScriptNames.ts engineSignalArgs: a Button's `pressed` has no
// argument, ButtonGroup's, a Resource, one).
//
//   node test/scanner/support/generateEngineNodeClasses.ts <godot-3.x binary> [out.json]
import { writeFileSync } from "node:fs"
import { dumpFromEngine } from "./engineDump.ts"

const DUMP = `extends SceneTree
func _init():
	var out = []
	for cls in ClassDB.get_class_list():
		if cls == "Node" or ClassDB.is_parent_class(cls, "Node"):
			out.append(cls)
	var f = File.new()
	f.open(OS.get_environment("DUMP_OUT"), File.WRITE)
	f.store_string(to_json(out))
	f.close()
	quit()
`

const [binary, out = "adapters/scanner/gdscript/engine-node-classes.json"] = process.argv.slice(2)
if (binary === undefined) {
  console.error("usage: node test/scanner/support/generateEngineNodeClasses.ts <godot-3.x binary> [out.json]")
  process.exit(2)
}
const classes = (dumpFromEngine(binary, DUMP) as Array<string>).toSorted()
writeFileSync(out, `${JSON.stringify({ 3: classes })}\n`)
