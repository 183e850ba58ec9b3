import { engineSignalArgs } from "../gdscript/engineScriptNames.ts"
import { type DataArg, type SignalSource, UNREAD } from "../resource/SceneFacts.ts"
import { SIGNAL_ARGUMENTS } from "./dataCallScript.ts"

// What a scene connection's signal passes before the binds, for the script that stands for the connection's call
// (dataCallScript.ts): each list is one way the signal may be emitted. An engine signal passes as many values as
// its class emits it with (engine-script-names.json, on nodes; every count the classes of that name have, since
// the table does not say which class has which), values the scanner does not know (a LineEdit's typed text, a
// Tree item's name, a body, an HTTP body), except an AnimationPlayer's `animation_started`/`animation_finished`,
// which pass the name of one of its animations (3.x scene/animation/animation_player.cpp, `emit_signal(…,
// playback.assigned)`): where the scene gives the player its animations and no script (`anims/<name>`), one list
// per name. A script may emit a signal the node's class does not have, with any number of values: those are
// judged at the emit (analyzeScript.ts), and stand here as nulls (no name, path, text or object), as many as a
// name of the dispatch table may need before the binds (SIGNAL_ARGUMENTS). Godot 4's `unbinds` drops the last ones.

/** AnimationPlayer's signals that pass the name of the animation that starts or ends. */
const ANIMATION_NAME_SIGNALS: ReadonlySet<string> = new Set(["animation_started", "animation_finished"])

/** More animations than this are written as a value not known (one call per name would make the line long). */
const MAX_NAMES = 32

/** The lists of values `signal` of `source` may pass before the binds (the engine's table is Godot 3's, read for both grammars). */
export const signalArguments = (signal: string, source: SignalSource | undefined, unbinds: number): ReadonlyArray<ReadonlyArray<DataArg>> => {
  const engine = engineSignalArgs(signal, true)
  const names = source?.type === "AnimationPlayer" && ANIMATION_NAME_SIGNALS.has(signal) ? (source.animations ?? []) : []
  const known = names.length > 0 && names.length <= MAX_NAMES
  const emitted = engine.flatMap((n): ReadonlyArray<ReadonlyArray<DataArg>> => (n === 1 && known ? names.map((name) => [name]) : [Array<DataArg>(n).fill(UNREAD)]))
  const scripted = Array.from({ length: SIGNAL_ARGUMENTS + 1 }, (_, k) => k)
    .filter((k) => !engine.includes(k))
    .map((k) => Array<DataArg>(k).fill(null))
  const lists = [...emitted, ...scripted].map((args) => args.slice(0, Math.max(0, args.length - unbinds)))
  return [...new Map(lists.map((l) => [JSON.stringify(l), l])).values()]
}
