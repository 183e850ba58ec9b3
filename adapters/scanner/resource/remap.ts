import { remapTarget } from "./redirect.ts"

/** The target the engine loads for a `.remap` stub's original path (redirect.ts), or null. */
export const parseRemapTarget = (text: string): string | null => remapTarget(text)
