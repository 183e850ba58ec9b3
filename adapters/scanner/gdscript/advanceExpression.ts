// Godot 4's AnimationNodeStateMachineTransition.advance_expression: text the engine parses with
// Expression and executes on the AnimationTree's advance_expression_base_node whenever the state machine
// looks at the transition, with every call allowed outside the editor (scene/animation/
// animation_node_state_machine.cpp, `exp->execute(Array(), expression_base, false,
// Engine::get_singleton()->is_editor_hint())`). Expression reads a bare name as a property of that node and
// `name(…)` as a call of its method (core/math/expression.cpp), as a GDScript method of the node would; so
// the text is judged as the body of such a method: a GDScript that returns it, analysed with the pack.

import type { Val } from "./values.ts"

/** The class that has the property, and the setter that writes it. */
export const ADVANCE_EXPRESSION_CLASS = "AnimationNodeStateMachineTransition"
export const ADVANCE_EXPRESSION = "advance_expression"
export const ADVANCE_EXPRESSION_SETTER = "set_advance_expression"

/** The engine strips the text's edges and ignores an empty one (`set_advance_expression`). */
export const isEvaluated = (text: string): boolean => text.trim() !== ""

/**
 * A Godot 4 script whose one method returns the expression, on a node (the base node is a Node): its
 * names and calls are the node's, as Expression reads them. Parentheses keep a text with line breaks one
 * expression; the text starts on a line of its own so its positions are its own lines plus two.
 */
export const advanceExpressionScript = (text: string): string => `extends Node\nfunc _advance_expression():\n\treturn (\n${text.trim()}\n\t)\n`

/** An object that may be a transition: one, or an object of unknown class (not the pack's own, a value, or another engine class). */
export const mayBeTransition = (v: Val): boolean =>
  !(v.t === "own" || v.t === "script" || v.t === "guard" || v.t === "lit" || v.t === "str" || v.t === "method" || (v.t === "inst" && v.cls !== ADVANCE_EXPRESSION_CLASS))
