import type { Expr } from "./ast.ts"
import type { Grammar } from "./tokenizer.ts"
import type { Val } from "./values.ts"

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

/**
 * Whether a receiver other than self or the pack's own object may be a SpinBox's LineEdit: a value the analysis
 * cannot pin down (get_line_edit(), a node by path or from get_children, a cast) or an engine object of one of
 * the LineEdit's classes.
 */
export const mayBeSpinBoxLineEdit = (recv: Val): boolean => (recv.t === "unknown" ? recv.plain !== true : recv.t === "inst" ? LINE_EDIT_CLASSES.has(recv.cls) : false)

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
