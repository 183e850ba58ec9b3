import fc from "fast-check"
import { describe, expect, test } from "vitest"
import { createSha256 } from "../../adapters/memory/sha256.ts"
import { decideBudget } from "../../domain/budget/BudgetPolicy.ts"
import { firstFreeSlug, SLUG_PATTERN, slugCandidate, slugFromName } from "../../domain/game/Slug.ts"
import { releaseObjectKey, sha256FromObjectKey } from "../../domain/release/ObjectKey.ts"
import type { Release } from "../../domain/release/Release.ts"
import { isValidVersion } from "../../domain/release/Version.ts"
import { activeRelease, catalogStatus, nextReleaseStatus } from "../../domain/review/ReviewMachine.ts"
import { sha256Hex } from "../support/streams.ts"

describe("slugs", () => {
  test("slugFromName always yields a valid slug of at most 64 characters", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 120 }), (name) => {
      const slug = slugFromName(name)
      expect(slug).toMatch(SLUG_PATTERN)
      expect(slug.length).toBeLessThanOrEqual(64)
    }), { numRuns: 500 })
  })

  test("strips marks and folds to ASCII, falling back to 'game'", () => {
    expect(slugFromName("Ångström Über Café")).toBe("angstrom-uber-cafe")
    expect(slugFromName("  --Hello,   World!!  ")).toBe("hello-world")
    expect(slugFromName("ＦＵＬＬ ｗｉｄｔｈ")).toBe("full-width")
    expect(slugFromName("日本語")).toBe("game")
  })

  test("candidates are distinct, valid and within the limit, even for a 64-character base", () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), (name) => {
      const base = slugFromName(name)
      const candidates = Array.from({ length: 30 }, (_, i) => slugCandidate(base, i + 1))
      expect(new Set(candidates).size).toBe(30)
      for (const c of candidates) {
        expect(c).toMatch(SLUG_PATTERN)
        expect(c.length).toBeLessThanOrEqual(64)
      }
      const taken = new Set(candidates.slice(0, 7))
      expect(taken.has(firstFreeSlug(base, taken))).toBe(false)
    }))
  })
})

describe("versions", () => {
  test("the rule: 1-32 of [A-Za-z0-9._-], first alphanumeric, no '..'", () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), (s) => {
      const expected = s.length >= 1 && s.length <= 32 && /^[A-Za-z0-9]/.test(s) && /^[A-Za-z0-9._-]*$/.test(s) && !s.includes("..")
      expect(isValidVersion(s)).toBe(expected)
    }), { numRuns: 2000 })
    expect(["1.0.0", "v2", "2024.01.01-rc_1", "a".repeat(32)].every(isValidVersion)).toBe(true)
    expect(["", ".1", "1..2", "a".repeat(33), "1/2", "1 2"].some(isValidVersion)).toBe(false)
  })
})

describe("object keys", () => {
  test("the sha256 is read back from the key it is in", () => {
    const sha = "0123456789abcdef".repeat(4)
    expect(sha256FromObjectKey(releaseObjectKey("gm_1", "1.0.0", sha))).toBe(sha)
    expect(sha256FromObjectKey("tmp/xyz")).toBeNull()
  })
})

describe("budget policy", () => {
  test("a sequence of decisions never lets more than `count` spends into any window", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 5 }),
      fc.integer({ min: 1, max: 100 }),
      fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 60 }),
      (count, windowSeconds, steps) => {
        const spent: Array<number> = []
        let now = 0
        for (const step of steps) {
          now += step
          const decision = decideBudget(spent, now, { count, windowSeconds })
          if (decision.allowed) spent.push(now)
          else {
            expect(decision.retryAfterSeconds).toBeGreaterThanOrEqual(1)
            // Retrying when told succeeds.
            expect(decideBudget(spent, now + decision.retryAfterSeconds * 1000, { count, windowSeconds }).allowed).toBe(true)
          }
          const inWindow = spent.filter((t) => t > now - windowSeconds * 1000)
          expect(inWindow.length).toBeLessThanOrEqual(count)
        }
      },
    ), { numRuns: 500 })
  })
})

const aRelease = (version: string, status: Release["status"], reviewedAt: string | null): Release => ({
  gameId: "g", version, sha256: "a".repeat(64), sizeBytes: 2048, contentType: "application/octet-stream", objectKey: "k",
  source: "release_api", status, createdBy: "o", createdAt: new Date("2026-01-01T00:00:00.000Z"), reviewedBy: null,
  reviewedAt: reviewedAt === null ? null : new Date(reviewedAt), rejectionReason: null,
})

describe("review machine (spec §3)", () => {
  test("only pending releases can be approved or rejected", () => {
    expect(nextReleaseStatus("pending_review", { type: "approve" })).toBe("approved")
    expect(nextReleaseStatus("pending_review", { type: "reject", reason: "r" })).toBe("rejected")
    for (const status of ["approved", "rejected"] as const) {
      expect(nextReleaseStatus(status, { type: "approve" })).toBeNull()
      expect(nextReleaseStatus(status, { type: "reject", reason: "r" })).toBeNull()
    }
  })

  test("catalog status is derived from the releases and the active pointer", () => {
    expect(catalogStatus([], null)).toBe("review")
    expect(catalogStatus([aRelease("1", "pending_review", null)], null)).toBe("review")
    expect(catalogStatus([aRelease("1", "rejected", "2026-01-02T00:00:00.000Z")], null)).toBe("rejected")
    expect(catalogStatus([aRelease("1", "rejected", "2026-01-02T00:00:00.000Z"), aRelease("2", "pending_review", null)], null)).toBe("review")
    expect(catalogStatus([aRelease("1", "approved", "2026-01-02T00:00:00.000Z"), aRelease("2", "rejected", "2026-01-03T00:00:00.000Z")], "1")).toBe("published")
    // Withdrawn and taken-down releases are ignored; a game left with only taken-down ones has left the catalog.
    expect(catalogStatus([aRelease("1", "withdrawn", null)], null)).toBe("review")
    expect(catalogStatus([aRelease("1", "taken_down", "2026-01-02T00:00:00.000Z"), aRelease("2", "rejected", "2026-01-03T00:00:00.000Z")], null)).toBe("taken_down")
    expect(catalogStatus([aRelease("1", "taken_down", "2026-01-02T00:00:00.000Z"), aRelease("2", "pending_review", null)], null)).toBe("review")
  })

  test("the most recent approval is the active release; rejections never move it", () => {
    const releases = [
      aRelease("2.0.0", "approved", "2026-01-02T00:00:00.000Z"),
      aRelease("1.0.0", "approved", "2026-01-03T00:00:00.000Z"),
      aRelease("3.0.0", "rejected", "2026-01-04T00:00:00.000Z"),
    ]
    expect(activeRelease(releases)?.version).toBe("1.0.0")
    expect(activeRelease([aRelease("1", "pending_review", null)])).toBeNull()
  })
})

describe("portable SHA-256 of the memory adapters", () => {
  test("agrees with the runtime's SHA-256 for any input split into any chunks", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 3000 }), fc.array(fc.nat(3000), { maxLength: 5 }), (data, cuts) => {
      const hash = createSha256()
      let previous = 0
      for (const cut of [...cuts].sort((a, b) => a - b).map((c) => Math.min(c, data.length))) {
        hash.update(data.subarray(previous, cut))
        previous = cut
      }
      hash.update(data.subarray(previous))
      expect(hash.digestHex()).toBe(sha256Hex(data))
    }), { numRuns: 300 })
  })
})
