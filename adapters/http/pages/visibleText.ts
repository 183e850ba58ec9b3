// Creators' text as the review pages show it: each hidden character (a bidirectional control, a zero-width or control
// character, domain/text/hiddenCharacters.ts) becomes a visible, labelled mark, so nothing reorders or hides the code a
// reviewer reads.
import { hiddenCharacterName, splitHidden } from "../../../domain/text/hiddenCharacters.ts"
import { codePointLabel } from "../../../domain/text/textRules.ts"
import { type Html, html } from "./html.ts"

export const visibleText = (text: string): Html =>
  html`${splitHidden(text).map((piece) =>
    "text" in piece
      ? piece.text
      : html`<mark class="hidden-char" title="${`${codePointLabel(piece.hidden)} ${hiddenCharacterName(piece.hidden)}`}">${codePointLabel(piece.hidden)}</mark>`
  )}`
