import { NameText } from "../text/UserText.ts"

/**
 * Game name: one line, not blank, 1-80 characters counted as Unicode code points (an emoji is one character), without
 * control characters, bidirectional controls or lone surrogates; decoded (and stored) in NFC.
 */
export const GameName = NameText
export type GameName = typeof GameName.Type
