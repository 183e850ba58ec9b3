import type { Site } from "./callSite.ts"
import { mayBeName } from "./callSite.ts"
import type { ControlsInPack } from "./dialogPresence.ts"
import { type DrivenControl, type InternalWire, isChildClass, mayBeInternalChild, SYNTHESIZED_INPUT } from "./engineDialogs.ts"
import type { Grammar } from "./tokenizer.ts"
import { isAnyObject, type Val } from "./values.ts"

// Code driving a driven control (engineDialogs.ts) present in the pack: a signal the engine wires to the
// control's internal methods emitted on an object that may be one of its children, or synthesized input fed
// to the GUI. What the analysis reports (engine-internal-method), or null.

export interface Driving {
  readonly matched: string
  readonly note: string
}

/** How the analysis shows a call and what it knows of the receiver. */
export interface DrivingSite {
  readonly site: Site
  /** The signal's name as evaluated (emit_signal's first argument, or a 4.x `x.signal.emit()`'s member name). */
  readonly signal: Val | null
  /** For self or an object of the pack: the engine class its class extends at the end of its chain. */
  readonly ownBase: string | null
}

const wiresOf = (present: ReadonlyArray<DrivenControl>, signal: Val): ReadonlyArray<readonly [DrivenControl, InternalWire]> =>
  present.flatMap((c) => c.wires.filter((w) => mayBeName(signal, w.signal)).map((w) => [c, w] as const))

/** Whether self or an object of the pack may be such a child: it is the control itself, or the pack attaches scripts at run time to engine nodes. */
const ownMayBeChild = (base: string | null, present: ReadonlyArray<DrivenControl>, attaches: boolean): boolean =>
  base !== null && (present.some((c) => c.cls === base) || (attaches && isChildClass(base)))

const REGISTER_TEXT_ENTER = "register_text_enter"

export const driving = (d: DrivingSite, grammar: Grammar, pack: ControlsInPack): Driving | null => {
  const { site, signal } = d
  const present = pack.controls
  if (present.length === 0) return null
  const recv = site.recv
  const own = recv.t === "own"
  const child = own ? ownMayBeChild(d.ownBase, present, pack.attachesScripts) : mayBeInternalChild(recv)
  const names = present.map((c) => c.cls).join(" or ")
  if (signal !== null) {
    if (!child) return null
    const wires = wiresOf(present, signal)
    if (wires.length === 0) return null
    const shown = signal.t === "str" && signal.values.length === 1 ? JSON.stringify(signal.values[0]) : "…"
    const [first] = wires
    if (first === undefined) return null
    const reached = wires.map(([c, w]) => `${c.cls}'s "${w.signal}" → ${w.reaches}`).join("; ")
    return {
      matched: site.via ?? `${site.bare ? "" : `${site.label}.`}emit_signal(${shown})`,
      note: `the pack creates a ${names}, and ${own ? "this object" : "the receiver"} may be one of its internal children, whose signal the engine wires to internal methods (${reached}); emitted from code, the ${first[0].cls} ${first[0].does}`,
    }
  }
  // AcceptDialog.register_text_enter(edit) connects the edit's `text_entered` to the dialog's confirmation: registered on
  // what may be an internal dialog, the Enter of any LineEdit, the pack's own emitting it included, confirms that dialog
  // (a hundred-and-seventh red team's FileDialog make-folder dialog, reached through a canvas group).
  if (site.name === REGISTER_TEXT_ENTER && child) {
    return {
      matched: site.via ?? `${site.bare ? "" : `${site.label}.`}${REGISTER_TEXT_ENTER}(…)`,
      note: `the pack creates a ${names}, and ${own ? "this object" : "the receiver"} may be one of its internal dialogs: a LineEdit registered there confirms it on Enter (text_entered, which code may emit), and the ${present[0]?.cls ?? "control"} ${present[0]?.does ?? ""}`,
    }
  }
  const kind = SYNTHESIZED_INPUT[grammar].get(site.name)
  if (kind === undefined || site.bare) return null
  const applies =
    kind === "Input" ? site.cls === "Input" || site.label === "Input" || isAnyObject(recv)
    : kind === "callback" ? child
    : kind === "SceneTree" ? (recv.t === "inst" && (recv.cls === "SceneTree" || recv.cls === "MainLoop")) || (recv.t === "unknown" && recv.plain !== true)
    : (recv.t === "inst" && ["Viewport", "Window", "SubViewport", "Node", "Object"].includes(recv.cls)) || (recv.t === "unknown" && recv.plain !== true)
  if (!applies) return null
  return {
    matched: site.via ?? `${site.label}.${site.name}(…)`,
    note: `the pack creates a ${names}: synthesized input reaches the focused control, one of its internal children included (a LineEdit's Enter is text_entered, an OK button's click is pressed), which drive its internal methods (${present.map((c) => `${c.cls}: ${c.wires.map((w) => w.reaches).join(", ")}`).join("; ")}), and the ${present[0]?.cls ?? "control"} ${present[0]?.does ?? ""}`,
  }
}
