import { engineSignalArgs } from "../gdscript/engineScriptNames.ts"
import { type DataArg, UNREAD } from "../resource/SceneFacts.ts"
import { SCRIPT_SIGNAL_ARGUMENTS } from "./dataCallScript.ts"

// What a scene connection's signal passes before the binds, for the script that stands for the connection's call
// (dataCallScript.ts): each list is one way the signal may be emitted. An engine signal passes as many values as
// its class emits it with (engine-script-names.json, on nodes; every count the classes of that name have, since
// the table does not say which class has which), values the scanner does not know (a LineEdit's typed text, a
// Tree item's name, a body, an HTTP body, an AnimationPlayer's animation name: a fifteenth red team gave a player
// animations the connection's own scene does not show, through an inheriting scene, editable children, a second
// node of the same name and a `anims/a/b` key, so the names a scene shows are not taken for the only ones). A script
// may emit a signal the node's class does not have, with any number of values: those are judged at the emit
// (analyzeScript.ts), and stand here as nulls (no name, path, text or object), as many as a name of the dispatch
// table may need before the binds (SIGNAL_ARGUMENTS). Godot 4's `unbinds` drops the last ones.

/** The lists of values `signal` may pass before the binds (the engine's table is Godot 3's, read for both grammars). */
export const signalArguments = (signal: string, unbinds: number): ReadonlyArray<ReadonlyArray<DataArg>> => {
  const engine = engineSignalArgs(signal, true)
  const emitted = engine.map((n) => Array<DataArg>(n).fill(UNREAD))
  const scripted = SCRIPT_SIGNAL_ARGUMENTS.filter((nulls) => !engine.includes(nulls.length))
  const lists = [...emitted, ...scripted].map((args) => args.slice(0, Math.max(0, args.length - unbinds)))
  return [...new Map(lists.map((l) => [JSON.stringify(l), l])).values()]
}
