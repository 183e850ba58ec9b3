import defaultPolicyJson from "./default-policy.json" with { type: "json" }
import type { Policy } from "./Policy.ts"

/**
 * The policy shipped with the scanner (default-policy.json). Loaded without decoding so the scan
 * path never loads effect; test/scanner/gdscript.test.ts decodes it with the Policy schema.
 */
export const defaultPolicy: Policy = defaultPolicyJson as unknown as Policy
