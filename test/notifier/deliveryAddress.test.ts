import { describe, expect, test } from "vitest"
import { isPrivateAddress, refusedDestination } from "../../adapters/notifier/deliveryAddress.ts"

describe("creator webhook destinations", () => {
  test("loopback, private, link-local and reserved addresses are refused; public ones are not", () => {
    for (const address of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "::", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "not-an-ip"]) {
      expect(isPrivateAddress(address), address).toBe(true)
    }
    for (const address of ["8.8.8.8", "172.32.0.1", "192.169.0.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"]) {
      expect(isPrivateAddress(address), address).toBe(false)
    }
  })

  test("a name resolving to loopback is refused unless private addresses are allowed (tests only)", async () => {
    expect(await refusedDestination("localhost", false)).toContain("loopback, private or link-local")
    expect(await refusedDestination("[::1]", false)).not.toBeNull()
    expect(await refusedDestination("127.0.0.1", true)).toBeNull()
    expect(await refusedDestination("8.8.8.8", false)).toBeNull()
  })
})
