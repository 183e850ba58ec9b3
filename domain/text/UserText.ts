import { Schema, SchemaGetter } from "effect"
import {
  describeForbidden,
  forbiddenCharacters,
  IDENTIFIER_MAX_LENGTH,
  isBlank,
  type LineMode,
  NAME_MAX_CODE_POINTS,
  nfcCodePointCount,
  REASON_MAX_CODE_POINTS,
} from "./textRules.ts"

// Schema building blocks for text from users (api-conventions, "Text from users"). Every check runs on the text as
// sent, so a problem names what the client wrote; names and reasons then decode to their NFC form, which is what
// is stored. Failures read "<field>: contains U+202E (a bidirectional control); remove it" once decodeInput adds the
// field's path.

/** Control characters (LF and TAB too, unless multi-line), bidirectional controls and line separators; as JSON Schema. */
const FORBIDDEN_RANGES: Readonly<Record<LineMode, string>> = {
  single: "\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069",
  multi: "\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069",
}

/** Refuses control characters, bidirectional controls, line separators and lone surrogates, naming each code point. */
export const withoutForbiddenCharacters = (lines: LineMode) =>
  Schema.makeFilter((s: string) => forbiddenCharacters(s, lines).map(describeForbidden), {
    expected: lines === "multi"
      ? "text without control characters other than LF and TAB, bidirectional controls or lone surrogates"
      : "one line of text without control characters, bidirectional controls or lone surrogates",
    toJsonSchema: () => ({ pattern: `^[^${FORBIDDEN_RANGES[lines]}]*$` }),
  })

const notBlank = (expected: string) =>
  Schema.makeFilter((s: string) => !isBlank(s), { expected, toJsonSchema: () => ({ pattern: "\\S" }) })

/** Length in code points of the NFC form (what is stored), checked before decoding so the message counts what was sent. */
const nfcCodePointsBetween = (minimum: number, maximum: number) =>
  Schema.makeFilter(
    (s: string) => {
      const count = nfcCodePointCount(s)
      return count >= minimum && count <= maximum
        ? undefined
        : `Expected ${minimum}-${maximum} characters (Unicode code points, after NFC normalisation), got ${count}`
    },
    { expected: `${minimum}-${maximum} characters`, toJsonSchema: () => ({ minLength: minimum, maxLength: maximum }) },
  )

/** Decodes to the NFC form; encoding leaves the text as it is. */
const toNfc = Schema.decode<typeof Schema.String>({
  decode: SchemaGetter.transform((s: string) => s.normalize("NFC")),
  encode: SchemaGetter.transform((s: string) => s),
})

/** A name (games, labels): one line, not blank, 1-80 code points, decoded to NFC. */
export const NameText = Schema.String.pipe(
  Schema.check(
    withoutForbiddenCharacters("single"),
    notBlank("a name that is not only whitespace"),
    nfcCodePointsBetween(1, NAME_MAX_CODE_POINTS),
  ),
  toNfc,
)

/** A reason (e.g. a rejection): LF and TAB allowed, not blank, at most 2000 code points, decoded to NFC. */
export const ReasonText = Schema.String.pipe(
  Schema.check(
    withoutForbiddenCharacters("multi"),
    notBlank("a reason the creator can act on"),
    nfcCodePointsBetween(1, REASON_MAX_CODE_POINTS),
  ),
  toNfc,
)

/**
 * An identifier someone else chose (owner ids, which are token subjects): 1-255 code units, one line, no forbidden
 * character. Kept verbatim, never normalised: it must equal the `sub` of its owner's tokens code unit for code unit.
 */
export const IdentifierText = Schema.String.pipe(
  Schema.check(withoutForbiddenCharacters("single"), Schema.isBetweenLength(1, IDENTIFIER_MAX_LENGTH)),
)
