import { MULTIPART_MAX_BYTES, RELEASE_MAX_BYTES, RELEASE_MIN_BYTES } from "../../../domain/release/Limits.ts"
import type { Finding } from "../../../domain/scan/Finding.ts"
import { RULE } from "../../../domain/scan/RuleId.ts"
import type { ScanExpectations } from "../../../ports/PackScanner.ts"
import { finding, PACK_ITSELF } from "../findings.ts"

/** Check 7: release API 1024-536870912 bytes inclusive; multipart at or under 2 GiB. */
export const checkSize = (size: number, expectations: ScanExpectations): ReadonlyArray<Finding> => {
  const [min, max] = expectations.path === "release_api" ? [RELEASE_MIN_BYTES, RELEASE_MAX_BYTES] : [0, MULTIPART_MAX_BYTES]
  if (size >= min && size <= max) return []
  const route = expectations.path === "release_api" ? "the release API" : "the multipart upload"
  return [
    finding({
      rule: RULE.size,
      file: PACK_ITSELF,
      pattern: `${min}-${max} bytes`,
      message: `The pack is ${size} bytes; ${route} accepts ${min === 0 ? `at most ${max}` : `${min} to ${max}`} bytes.${size > max ? " Larger packages need large-upload onboarding with the operator." : ""}`,
    }),
  ]
}
