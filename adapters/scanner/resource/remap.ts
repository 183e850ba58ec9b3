import { remapTarget } from "./redirect.ts"
import type { Grammar } from "./variantText.ts"

/** The target the engine loads for a `.remap` stub's original path (redirect.ts, read by the engine of `grammar`), or null. */
export const parseRemapTarget = (bytes: Uint8Array, grammar: Grammar): string | null => remapTarget(bytes, grammar)
