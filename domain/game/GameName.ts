import { Schema } from "effect"

/** Game name: 1-80 characters, counted as Unicode code points (an emoji is one character). */
export const GameName = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((s: string) => s.trim().length > 0, {
      expected: "a name that is not only whitespace",
      toJsonSchema: () => ({ pattern: "\\S" }),
    }),
    Schema.isBetweenCodePoints(1, 80),
  ),
)
export type GameName = typeof GameName.Type
