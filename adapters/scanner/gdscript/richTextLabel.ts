import type { Grammar } from "./tokenizer.ts"

// What of RichTextLabel takes BBCode, whose [img] and [font=…] tags load the paths they name
// (scene/gui/rich_text_label.cpp). A call or write on any receiver by one of these names is judged as BBCode
// given to a RichTextLabel; `text`/`set_text` are every Label's too, so only their constant BBCode is (the
// boolean: whether BBCode built at run time is a warning there).

/** 3.x append_bbcode, parse_bbcode, set_bbcode; 4.x append_text, parse_bbcode, set_text. */
export const BBCODE_METHODS: ReadonlyMap<string, boolean> = new Map([["append_bbcode", true], ["parse_bbcode", true], ["set_bbcode", true], ["append_text", true], ["set_text", false]])
/** 3.x bbcode_text; 4.x text (BBCode with bbcode_enabled). */
export const BBCODE_PROPERTIES: ReadonlyMap<string, boolean> = new Map([["bbcode_text", true], ["text", false]])

/**
 * RichTextLabel and the engine classes it descends from, the same in 3.x and 4.x (the class reference's
 * `inherits`): a script whose engine base is one of these may be attached to a RichTextLabel (GDScript checks
 * only that the object descends from the script's base), and a node of the scene tree may be one.
 */
export const RICH_TEXT_LABEL = "RichTextLabel"
const RICH_TEXT_LABEL_LINE: ReadonlySet<string> = new Set([RICH_TEXT_LABEL, "Control", "CanvasItem", "Node", "Object"])

/** Whether an object of engine class `cls` may be a RichTextLabel. */
export const mayBeRichTextLabel = (cls: string): boolean => RICH_TEXT_LABEL_LINE.has(cls)

/**
 * The methods and properties of the grammar's RichTextLabel that take BBCode: what a call or write by a name
 * that is not constant may reach on an object that may be a RichTextLabel (3.x `text` is plain text).
 */
export const RICH_TEXT_LABEL_BBCODE: Readonly<Record<Grammar, { readonly methods: ReadonlyArray<string>; readonly properties: ReadonlyArray<string> }>> = {
  3: { methods: ["append_bbcode", "parse_bbcode", "set_bbcode"], properties: ["bbcode_text"] },
  4: { methods: ["append_text", "parse_bbcode", "set_text"], properties: ["text"] },
}
