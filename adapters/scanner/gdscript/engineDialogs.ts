import type { Grammar } from "./tokenizer.ts"
import type { Val } from "./values.ts"

// Engine controls whose constructors wire their own children's signals to internal methods that do dangerous
// work (read from the engines' sources: scene/gui/file_dialog.cpp, dialogs.cpp, spin_box.cpp, color_picker.cpp
// of 3.x and 4.x). The player pressing the control's buttons is the game's UI; code that emits those signals
// on the children (or feeds the GUI synthesized input) drives the internal method without naming it.

/** One signal a driven control's child (or the control itself) is wired to, and what it reaches. */
export interface InternalWire {
  readonly signal: string
  /** The internal method(s) it reaches, as the engine names them. */
  readonly reaches: string
}

export interface DrivenControl {
  /** The engine class. */
  readonly cls: string
  /** What the internal methods do, for the message. */
  readonly does: string
  readonly wires: ReadonlyArray<InternalWire>
}

// FileDialog 3.x (file_dialog.cpp, FileDialog::FileDialog): makedialog "confirmed" → _make_dir_confirm (makes the
// folder its LineEdit names, an absolute path whatever `access` is: DirAccess::make_dir fixes only res:// and
// user://); makedirname "text_entered" → AcceptDialog::_builtin_text_entered → "confirmed" → _make_dir_confirm;
// every AcceptDialog's OK button "pressed" → _ok → "confirmed"; the dialog's own "confirmed" → _action_pressed
// (file_selected with the typed path, absolute included); dir "text_entered" → _dir_entered (change_dir), file
// "text_entered" → _file_entered → _action_pressed, confirm_save "confirmed" → _save_confirm_pressed, makedir
// "pressed" → _make_dir, dir_up "pressed" → _go_up, drives "item_selected" → _select_drive, tree
// "item_activated" → _tree_item_activated (change_dir). 4.x (callable_mp) the same with text_submitted, and the
// tree's context menu "id_pressed" → _item_menu_id_pressed (OS::shell_show_in_file_manager).
const FILE_DIALOG_3: DrivenControl = {
  cls: "FileDialog",
  does: "makes a folder at any path typed in its box, absolute paths included whatever its access, or hands the game's file_selected handler a path typed there",
  wires: [
    { signal: "confirmed", reaches: "_make_dir_confirm, _action_pressed, _save_confirm_pressed" },
    { signal: "text_entered", reaches: "_make_dir_confirm, _dir_entered, _file_entered" },
    { signal: "pressed", reaches: "_make_dir_confirm (through the make-folder dialog's OK), _action_pressed, _make_dir, _go_up" },
    { signal: "item_selected", reaches: "_select_drive" },
    { signal: "item_activated", reaches: "_tree_item_activated" },
  ],
}
const FILE_DIALOG_4: DrivenControl = {
  ...FILE_DIALOG_3,
  does: `${FILE_DIALOG_3.does}, or opens the player's file manager`,
  wires: [
    { signal: "confirmed", reaches: "_make_dir_confirm, _action_pressed, _save_confirm_pressed" },
    { signal: "text_submitted", reaches: "_make_dir_confirm, _dir_submitted, _file_submitted" },
    { signal: "pressed", reaches: "_make_dir_confirm (through the make-folder dialog's OK), _action_pressed, _make_dir, _go_up" },
    { signal: "item_selected", reaches: "_select_drive" },
    { signal: "item_activated", reaches: "_tree_item_activated" },
    { signal: "id_pressed", reaches: "_item_menu_id_pressed (OS.shell_show_in_file_manager)" },
  ],
}
// SpinBox (spin_box.cpp): its LineEdit's "text_entered" and "focus_exited" (3.x) / "text_submitted" and
// "editing_toggled" (4.x; and "text_changed" with update_on_text_changed) → _text_entered / _text_submitted, which runs the box's text as an Expression, whose
// built-in functions include str2var / str_to_var (VariantParser without a resource parser: Resource("path")
// is ResourceLoader::load of any path, a resource whose script runs) and bytes2var.
const SPIN_BOX_3: DrivenControl = {
  cls: "SpinBox",
  does: "runs the text of its box as an Expression, whose str2var can load a resource (and its script) from any path",
  wires: [
    { signal: "text_entered", reaches: "_text_entered" },
    { signal: "focus_exited", reaches: "_line_edit_focus_exit → _text_entered" },
  ],
}
const SPIN_BOX_4: DrivenControl = {
  ...SPIN_BOX_3,
  does: SPIN_BOX_3.does.replace("str2var", "str_to_var"),
  wires: [
    { signal: "text_submitted", reaches: "_text_submitted" },
    { signal: "editing_toggled", reaches: "_line_edit_editing_toggled → _text_submitted" },
    // Connected when update_on_text_changed is on (SpinBox::set_update_on_text_changed).
    { signal: "text_changed", reaches: "_text_changed → _text_submitted" },
  ],
}

const CONTROLS: Readonly<Record<Grammar, ReadonlyArray<DrivenControl>>> = { 3: [FILE_DIALOG_3, SPIN_BOX_3], 4: [FILE_DIALOG_4, SPIN_BOX_4] }

/**
 * Engine classes that create a driven control inside themselves (memnew in their constructors or menus): 3.x
 * ColorPicker's value SpinBoxes, GraphEdit's snap SpinBox; 4.x also ColorPicker's palette FileDialog.
 */
const CONTAINED_IN: Readonly<Record<Grammar, Readonly<Record<string, ReadonlyArray<string>>>>> = {
  3: { FileDialog: ["FileDialog"], SpinBox: ["SpinBox", "ColorPicker", "ColorPickerButton", "GraphEdit"] },
  4: { FileDialog: ["FileDialog", "ColorPicker", "ColorPickerButton"], SpinBox: ["SpinBox", "ColorPicker", "ColorPickerButton", "GraphEdit"] },
}

/** The driven controls of the grammar's engine. */
export const drivenControls = (grammar: Grammar): ReadonlyArray<DrivenControl> => CONTROLS[grammar]

/** The engine classes whose presence in a pack brings the driven control `cls` with them. */
export const classesBringing = (grammar: Grammar, cls: string): ReadonlyArray<string> => CONTAINED_IN[grammar][cls] ?? [cls]

/**
 * Classes a driven control's internal children (and the controls themselves) are instances of, with their
 * bases: a value of another engine class is no such child.
 */
const CHILD_CLASSES: ReadonlySet<string> = new Set([
  "Object", "Node", "CanvasItem", "Control", "Viewport", "Window", "Popup", "WindowDialog", "AcceptDialog", "ConfirmationDialog", "FileDialog", "PopupMenu",
  "BaseButton", "Button", "ToolButton", "OptionButton", "MenuButton", "CheckButton", "LineEdit", "Tree", "SpinBox", "Range", "Container", "BoxContainer", "HBoxContainer", "VBoxContainer",
])

/**
 * Whether a receiver may be an internal child of a driven control: a value the analysis cannot pin down (a
 * node fetched by path or from get_children, get_line_edit(), get_ok(), a cast), or an engine object of one of
 * the children's classes. Self and the pack's own objects are judged by their engine base (see the caller).
 */
export const mayBeInternalChild = (recv: Val): boolean => (recv.t === "unknown" ? recv.plain !== true : recv.t === "inst" ? CHILD_CLASSES.has(recv.cls) : false)

/** Whether an engine class is one an internal child may be an instance of. */
export const isChildClass = (cls: string): boolean => CHILD_CLASSES.has(cls)

/**
 * Engine APIs that feed the GUI synthesized input: the focused control (a dialog's LineEdit, its OK button)
 * handles the event as if the player had typed or clicked. `Input.parse_input_event` (3.x, 4.x), Viewport's
 * `input`/`unhandled_input` (3.x) and `push_input`/`push_unhandled_input`/`push_text_input` (4.x),
 * `MainLoop`/`SceneTree.input_event` (3.x), and the input callbacks of a Control or Node called directly.
 */
export const SYNTHESIZED_INPUT: Readonly<Record<Grammar, ReadonlyMap<string, "Input" | "Viewport" | "SceneTree" | "callback">>> = {
  3: new Map([
    ["parse_input_event", "Input"], ["input", "Viewport"], ["unhandled_input", "Viewport"], ["input_event", "SceneTree"],
    ["_gui_input", "callback"], ["_input", "callback"], ["_unhandled_input", "callback"], ["_unhandled_key_input", "callback"],
  ]),
  4: new Map([
    ["parse_input_event", "Input"], ["push_input", "Viewport"], ["push_unhandled_input", "Viewport"], ["push_text_input", "Viewport"],
    ["_gui_input", "callback"], ["_input", "callback"], ["_unhandled_input", "callback"], ["_unhandled_key_input", "callback"], ["_shortcut_input", "callback"],
  ]),
}
