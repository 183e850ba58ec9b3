import { unescapeGodotString } from "./godotString.ts"

/** The `path="…"` target of a `.remap` stub (`[remap]` section), or null. */
export const parseRemapTarget = (text: string): string | null => {
  const m = /^\s*path\s*=\s*"((?:[^"\\]|\\.)*)"/m.exec(text)
  return m?.[1] === undefined ? null : unescapeGodotString(m[1])
}
