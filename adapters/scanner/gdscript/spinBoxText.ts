import type { Expr } from "./ast.ts"
import type { Grammar } from "./tokenizer.ts"
import { isAnyObject, isLineEdit, type Val } from "./values.ts"

// Text a script writes into a SpinBox's LineEdit. The SpinBox runs the box's text as an Expression when it is
// entered, when the box loses the focus (3.x focus_exited, 4.x editing_toggled), on text_changed with 4.x's
// update_on_text_changed, and on SpinBox.apply() (3.2.3 and 4.x bind it): scene/gui/spin_box.cpp _text_entered /
// _text_submitted, `expr->execute(Array(), nullptr, false)` (4.x with const calls only, which does not cover the
// built-in functions: core/math/expression.cpp TYPE_BUILTIN_FUNC calls Variant::call_utility_function). Its
// built-ins include str2var / str_to_var, which load `Resource("user://x.tres")` and run the resource's script.
// So text a script puts there is judged as that Expression: constant text as the body of a method (like a
// transition's advance_expression, advanceExpression.ts), other text is an error; a number is no code.

export const SPIN_BOX = "SpinBox"
/** What the contents scan calls such a text (the key of the built-in script it is judged as). */
export const SPIN_BOX_TEXT = "SpinBox text"

/** Classes a SpinBox's internal LineEdit is an instance of: a value known to be another engine class is not it. */
const LINE_EDIT_CLASSES: ReadonlySet<string> = new Set(["LineEdit", "Control", "CanvasItem", "Node", "Object"])

/** Whether an engine class is one the SpinBox's LineEdit is (for self: a script extending it, attached at run time). */
export const isLineEditClass = (cls: string): boolean => LINE_EDIT_CLASSES.has(cls)

/** A typed variable of this value keeps what it is given of the LineEdit (`var e: LineEdit = sb.get_line_edit()`). */
export const keepsLineEdit = (typed: Val): boolean => typed.t === "inst" && LINE_EDIT_CLASSES.has(typed.cls)

/**
 * Whether a receiver other than self may be a SpinBox's internal LineEdit: a value that came from where the
 * engine can hand it out (values.ts `lineEdit`, set by reachesLineEdit below and kept through locals,
 * containers, members and parameters), or a value that may be any object (`instance_from_id(n)`).
 */
export const mayBeSpinBoxLineEdit = (recv: Val): boolean => isLineEdit(recv) || isAnyObject(recv)

/** SpinBox and its bases (3.x and 4.x): only an object of one of these may have the internal LineEdit as a direct child. */
const SPIN_BOX_BASES: ReadonlySet<string> = new Set([SPIN_BOX, "Range", "Control", "CanvasItem", "Node", "Object"])

/** Whether a receiver may be a SpinBox: not the pack's own object of another engine base, another engine class, or a value. */
export const mayBeSpinBox = (recv: Val, ownBase: string | null): boolean =>
  recv.t === "own" ? ownBase === null || SPIN_BOX_BASES.has(ownBase) : recv.t === "inst" ? SPIN_BOX_BASES.has(recv.cls) : recv.t === "unknown" && recv.plain !== true

/**
 * Methods that give the control the engine picked (the focused one, the next in focus order, the one under the
 * mouse): the LineEdit once the user clicked into the box (3.x Control.get_focus_owner, find_*_valid_focus;
 * 4.x Viewport.gui_get_focus_owner, gui_get_hovered_control, Control.find_valid_focus_neighbor).
 */
const ENGINE_PICKS: ReadonlySet<string> = new Set(["get_focus_owner", "gui_get_focus_owner", "gui_get_hovered_control", "find_next_valid_focus", "find_prev_valid_focus", "find_valid_focus_neighbor"])

/** Methods that, on the LineEdit itself or a node around it, give a node that may be it (`le.get_node(".")`, its menu's get_parent()). */
const AROUND: ReadonlySet<string> = new Set([
  "get_node", "get_node_or_null", "get_parent", "get_child", "get_children", "find_node", "find_child", "find_children", "find_parent", "get_menu",
])

/** Whether an argument is absent (the default) or the literal `value`. */
const isDefault = (arg: Val | undefined, value: boolean): boolean => arg === undefined || (arg.t === "lit" && arg.value === value)

/**
 * Whether what `recv.name(args)` gives may be a SpinBox's internal LineEdit, or a list holding it
 * (`recvMaySpin`: mayBeSpinBox of the receiver). Found in scene/gui/spin_box.cpp and scene/main/node.cpp:
 * - get_line_edit() gives it;
 * - it is the SpinBox's child: 3.x `add_child(line_edit)`, so get_children() and get_child(i) list it; 4.x
 *   `add_child(line_edit, false, INTERNAL_MODE_FRONT)`, which they skip unless include_internal is true;
 * - its name is generated (Node::_validate_child_name, away from the editor): `@@<n>` in 3.x, `@LineEdit@<n>`
 *   in 4.x; get_node by a path that is not constant, or holds `@`, may name it (a constant path without `@`
 *   names it only once code renames it: an error of its own, see analyzeScript);
 * - find_node (3.x), find_child and find_children (4.x) skip nodes without an owner unless `owned` is false,
 *   and the engine gives the LineEdit none;
 * - the engine puts it in no group (get_nodes_in_group never gives it), and get_parent() and get_tree()
 *   reach it only from a node that already may be it or be below it (its PopupMenu);
 * - the focus owner and the focus neighbours are whichever control the user is in (ENGINE_PICKS).
 */
export const reachesLineEdit = (grammar: Grammar, name: string, recv: Val, recvMaySpin: boolean, args: ReadonlyArray<Val>): boolean => {
  if (ENGINE_PICKS.has(name) || (AROUND.has(name) && isLineEdit(recv))) return true
  switch (name) {
    case "get_line_edit":
      return recvMaySpin
    case "get_node":
    case "get_node_or_null": {
      const path = args[0]
      return path === undefined || path.t !== "str" || path.values.some((p) => p.includes("@"))
    }
    case "get_child":
      return recvMaySpin && (grammar === 3 || !isDefault(args[1], false))
    case "get_children":
      return recvMaySpin && (grammar === 3 || !isDefault(args[0], false))
    case "find_node":
    case "find_child":
      return !isDefault(args[2], true)
    case "find_children":
      return !isDefault(args[3], true)
    default:
      return false
  }
}

/**
 * Properties and methods that rename a node or make it reachable by a lookup that does not give the LineEdit
 * otherwise (a constant path, find_node's owned nodes, a group, another parent's children), on the node itself.
 */
export const REHOMES: ReadonlySet<string> = new Set(["name", "set_name", "owner", "set_owner", "unique_name_in_owner", "set_unique_name_in_owner", "add_to_group", "reparent"])
/** Methods that make a node given as an argument a child of another (3.x add_child_below_node, 4.x add_sibling, both replace_by). */
export const ADOPTS: ReadonlySet<string> = new Set(["add_child", "add_child_below_node", "add_sibling", "replace_by"])

/** LineEdit methods that replace the whole text with their first argument (3.x, 4.x). */
const SETS_TEXT: ReadonlySet<string> = new Set(["set_text"])
/**
 * LineEdit methods that change part of the text: an insertion can complete a name the rest of the text holds
 * (`str` … `var(…)` with `2` inserted between), a deletion can join two; 3.x append_at_cursor,
 * delete_char_at_cursor, 4.x insert_text_at_caret, delete_char_at_caret, both delete_text and menu_option.
 */
const EDITS_TEXT: Readonly<Record<Grammar, ReadonlySet<string>>> = {
  3: new Set(["append_at_cursor", "delete_char_at_cursor", "delete_text", "menu_option"]),
  4: new Set(["insert_text_at_caret", "delete_char_at_caret", "delete_text", "menu_option"]),
}
/** menu_option ids that leave the text as it was or empty (LineEdit.MENU_*: COPY 1, CLEAR 3, SELECT_ALL 4, UNDO 5, REDO 6 in 3.x and 4.x). */
const KEEPS_TEXT: ReadonlySet<string> = new Set(["MENU_COPY", "MENU_CLEAR", "MENU_SELECT_ALL", "MENU_UNDO", "MENU_REDO"])
const KEEPS_TEXT_IDS: ReadonlySet<number> = new Set([1, 3, 4, 5, 6])

/** How a LineEdit method changes the text: replaces it with argument 0, edits part of it, or neither (null). */
export const textChange = (grammar: Grammar, name: string): "sets" | "edits" | null => (SETS_TEXT.has(name) ? "sets" : EDITS_TEXT[grammar].has(name) ? "edits" : null)

/** Whether a menu_option argument is an option that leaves the text as the analysis saw it. */
export const keepsText = (arg: Expr | undefined, value: Val): boolean =>
  (arg?.k === "member" || arg?.k === "id") && KEEPS_TEXT.has(arg.name) ? true : value.t === "lit" && typeof value.value === "number" && KEEPS_TEXT_IDS.has(value.value)

/**
 * The texts the Expression may be given for a box's text: 4.x first turns `,` into `.` and `;` into `,` (keyboard
 * layouts with a decimal comma), and tries the text as written when that does not parse.
 */
export const evaluatedTexts = (text: string, grammar: Grammar): ReadonlyArray<string> => {
  if (grammar === 3) return [text]
  const converted = text.replaceAll(",", ".").replaceAll(";", ",")
  return converted === text ? [text] : [text, converted]
}
