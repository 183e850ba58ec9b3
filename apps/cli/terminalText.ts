// Text from a creator's pack (diffs, paths, finding messages) as the CLI prints it: every hidden character — a
// bidirectional control, a zero-width character, an escape sequence's ESC — and every carriage return that does not
// end a line is written as `<U+202E>`, so the terminal neither reorders, hides nor overwrites what the reviewer reads.
import { splitHidden } from "../../domain/text/hiddenCharacters.ts"
import { codePointLabel } from "../../domain/text/textRules.ts"

const LONE_CARRIAGE_RETURN = /\r(?!\n)/g

export const terminalText = (text: string): string =>
  splitHidden(text)
    .map((piece) => ("text" in piece ? piece.text.replace(LONE_CARRIAGE_RETURN, `<${codePointLabel(0x0d)}>`) : `<${codePointLabel(piece.hidden)}>`))
    .join("")
