// Text from a creator's pack (code, diffs, paths, finding messages) as the pages show it: each hidden character (a
// bidirectional control, a zero-width or control character, domain/text/hiddenCharacters.ts) becomes a visible,
// labelled mark, so nothing reorders or hides what a reviewer reads. Wherever a page prints pack text, it goes
// through one of these two: visibleText in markup, markedText where markup cannot go (a page's <title>).
import { hiddenCharacterName, splitHidden } from "../../../domain/text/hiddenCharacters.ts"
import { codePointLabel } from "../../../domain/text/textRules.ts"
import { type Html, html } from "./html.ts"

export const visibleText = (text: string): Html =>
  html`${splitHidden(text).map((piece) =>
    "text" in piece
      ? piece.text
      : html`<mark class="hidden-char" title="${`${codePointLabel(piece.hidden)} ${hiddenCharacterName(piece.hidden)}`}">${codePointLabel(piece.hidden)}</mark>`
  )}`

/** The same for plain text (a page's <title>, where no markup can go): each hidden character written `<U+202E>`, as the CLI writes it. */
export const markedText = (text: string): string =>
  splitHidden(text).map((piece) => ("text" in piece ? piece.text : `<${codePointLabel(piece.hidden)}>`)).join("")
