import { Schema } from "effect"

/** Release version: 1-32 of [A-Za-z0-9._-], first character alphanumeric, no "..". It ends up in URLs and object keys. */
export const VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/

export const isValidVersion = (value: string): boolean => VERSION_PATTERN.test(value) && !value.includes("..")

export const Version = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((s: string) => isValidVersion(s), {
      expected: "1-32 characters of [A-Za-z0-9._-], starting with a letter or digit, without '..'",
      toJsonSchema: () => ({ pattern: "^(?!.*\\.\\.)[A-Za-z0-9][A-Za-z0-9._-]{0,31}$" }),
    }),
  ),
  Schema.brand("Version"),
)
export type Version = typeof Version.Type
