import fc from "fast-check"
import { describe, expect, test } from "vitest"
import { compareVersions } from "../../domain/release/VersionOrder.ts"
import { isValidVersion } from "../../domain/release/Version.ts"

const version = fc.stringMatching(/^[0-9a-z][0-9a-z._-]{0,12}$/).filter(isValidVersion)

describe("version order for multipart updates", () => {
  test.each([
    ["1.0", "1.0.0", 0],
    ["1.0.0", "1.0.1", -1],
    ["1.2", "1.10", -1],
    ["2.0", "10.0", -1],
    ["1.0.0-rc1", "1.0.0", -1],
    ["1.0.0-rc1", "1.0.0-rc2", -1],
    ["1.0.0-alpha", "1.0.0-beta", -1],
    ["1.0.0-rc.2", "1.0.0-rc.10", -1],
    ["1.0.0-rc1", "0.9.9", 1],
    ["1.0.0", "1.0.0-1", 1],
    ["1.0.0a", "1.0.0", 1],
    ["2024.10.01", "2024.9.30", 1],
    ["1_2", "1.2", 0],
    ["99999999999999999999", "99999999999999999998", 1],
  ])("%s vs %s → %i", (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected)
    expect(compareVersions(b, a)).toBe(-expected || 0)
  })

  test("is a total preorder: reflexive, antisymmetric in sign, transitive", () => {
    fc.assert(fc.property(version, version, version, (a, b, c) => {
      expect(compareVersions(a, a)).toBe(0)
      expect(compareVersions(a, b)).toBe(-compareVersions(b, a) || 0)
      if (compareVersions(a, b) <= 0 && compareVersions(b, c) <= 0) expect(compareVersions(a, c)).toBeLessThanOrEqual(0)
    }), { numRuns: 2000 })
  })

  test("trailing zero segments never change the order, and a pre-release precedes its release", () => {
    fc.assert(fc.property(fc.array(fc.nat(50), { minLength: 1, maxLength: 4 }), fc.stringMatching(/^[a-z][a-z0-9]{0,4}$/), (parts, pre) => {
      const core = parts.join(".")
      expect(compareVersions(core, `${core}.0`)).toBe(0)
      expect(compareVersions(`${core}-${pre}`, core)).toBe(-1)
      expect(compareVersions(core, `${parts.map((p, i) => (i === parts.length - 1 ? p + 1 : p)).join(".")}`)).toBe(-1)
    }))
  })
})
