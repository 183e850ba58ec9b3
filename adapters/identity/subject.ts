import { codePointLabel, forbiddenCharacters, IDENTIFIER_MAX_LENGTH } from "../../domain/text/textRules.ts"

/**
 * Why a token's `sub` cannot be a user id (words that follow "The access token"), or null when it can. A subject
 * becomes owner ids, reviewer ids and log fields that administrators read, so it follows the identifier rule of user
 * text: 1-255 code units, no control or bidirectional character, no lone surrogate (domain/text/textRules.ts). Refused
 * at sign-in rather than cleaned: a changed subject would be somebody else.
 */
export const subjectProblem = (sub: unknown): string | null => {
  if (typeof sub !== "string" || sub.length === 0 || sub.length > IDENTIFIER_MAX_LENGTH) return "names no usable subject"
  const forbidden = forbiddenCharacters(sub, "single")[0]
  return forbidden === undefined
    ? null
    : `names a subject that contains ${codePointLabel(forbidden.codePoint)} (${forbidden.what}), which a user id may not hold`
}
