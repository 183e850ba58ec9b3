// Which addresses a creator's webhook may connect to: globally routable unicast only, whatever the spelling (the URL
// parser rewrites ::ffff:127.0.0.1 as ::ffff:7f00:1, 0x7f.1 as 127.0.0.1) and whichever IPv6 form embeds an IPv4
// address; and the socket lookup that applies the rule to every answer of a name.
import type { LookupAddress } from "node:dns"
import { describe, expect, test } from "vitest"
import { checkedLookup, isPublicAddress, RefusedAddress, refusedLiteral, type ResolvedAddress } from "../../adapters/notifier/deliveryAddress.ts"

const REFUSED = [
  // IPv4: this network, private, CGNAT, loopback, link-local (metadata), IETF, documentation, 6to4 relay, benchmarking,
  // multicast, reserved, broadcast.
  "0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.255", "100.64.0.1", "100.127.255.254", "127.0.0.1", "127.255.255.254",
  "169.254.169.254", "172.16.0.1", "172.31.255.255", "192.0.0.8", "192.0.2.1", "192.88.99.1", "192.168.1.1", "198.18.0.1",
  "198.19.255.255", "198.51.100.7", "203.0.113.9", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
  // IPv6: unspecified, loopback, ULA, link-local (with and without a zone), site-local, multicast, discard, SRv6,
  // documentation, benchmarking, Teredo, 6to4 (private or public inside), NAT64 local-use.
  "::", "::1", "0:0:0:0:0:0:0:1", "fc00::1", "fd12:3456::1", "fe80::1", "fe80::1%eth0", "febf::1", "fec0::1", "ff02::1",
  "ff0e::1", "100::1", "5f00::1", "2001:db8::1", "3fff::1", "2001:2::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2",
  "2002:7f00:1::1", "2002:808:808::1", "64:ff9b:1::808:808",
  // IPv4 inside IPv6: mapped (dotted, hex, expanded, upper case), NAT64, IPv4-compatible, IPv4-translated.
  "::ffff:127.0.0.1", "::ffff:7f00:1", "0:0:0:0:0:ffff:7f00:1", "::FFFF:7F00:1", "::ffff:a00:1", "::ffff:a9fe:a9fe",
  "::ffff:c0a8:101", "::ffff:0:0", "::ffff:ffff:ffff", "::ffff:6440:1", "64:ff9b::7f00:1", "64:ff9b::127.0.0.1",
  "64:ff9b::a9fe:a9fe", "64:ff9b::a00:1", "64:ff9b::ffff:ffff", "::7f00:1", "::127.0.0.1", "::808:808", "::ffff:0:7f00:1",
  // Not addresses at all.
  "", "not-an-ip", "localhost", "127.1", "2130706433", "1.2.3", "::ffff:127.0.0.1.1",
]

const PUBLIC = [
  "8.8.8.8", "1.1.1.1", "9.255.255.255", "11.0.0.1", "100.63.255.255", "100.128.0.1", "172.15.255.255", "172.32.0.1",
  "192.169.0.1", "198.17.255.255", "198.20.0.1", "223.255.255.254", "2001:4860:4860::8888", "2606:4700:4700::1111",
  "2a00:1450:4001::1", "2001:200::1", "::ffff:8.8.8.8", "::ffff:808:808", "64:ff9b::808:808", "64:ff9b::1.1.1.1",
]

describe("public addresses", () => {
  test.each(REFUSED)("%s is refused", (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })

  test.each(PUBLIC)("%s may be connected to", (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })

  test("URL spellings of loopback, private and metadata addresses are refused once the URL parser normalised them", () => {
    const urls = [
      "https://[::ffff:127.0.0.1]:8443/hook", "https://[0:0:0:0:0:ffff:127.0.0.1]/", "https://[::ffff:10.1.2.3]/",
      "https://[::ffff:169.254.169.254]/", "https://[64:ff9b::169.254.169.254]/", "https://[::127.0.0.1]/", "https://[::]/",
      "https://[fe80::1]/", "https://0x7f.1/", "https://2130706433/", "https://017700000001/", "https://127.1/",
      "https://0/", "https://[::1]:443/", "https://0xa9fea9fe/",
    ]
    for (const url of urls) {
      const host = new URL(url).hostname.replace(/^\[|\]$/g, "")
      expect(refusedLiteral(host, true), `${url} (${host})`).toBeInstanceOf(RefusedAddress)
      expect(refusedLiteral(host, false), url).toBeNull()
    }
    // A name is not a literal: the lookup checks what it resolves to.
    expect(refusedLiteral("hooks.example", true)).toBeNull()
    expect(refusedLiteral("8.8.8.8", true)).toBeNull()
  })
})

const lookupWith = (answers: ReadonlyArray<ResolvedAddress>, publicOnly: boolean, options: { all?: boolean; family?: number } = { all: true }) =>
  new Promise<{ readonly error: Error | null; readonly addresses: ReadonlyArray<LookupAddress> | string }>((resolve) => {
    const resolver = (hostname: string) => Promise.resolve(hostname === "hooks.example" ? answers : [])
    checkedLookup(resolver, publicOnly)("hooks.example", options, (error, addresses) => resolve({ error, addresses }))
  })

describe("the socket's lookup", () => {
  test("one address that is not public among the answers refuses the host; without the check every answer is passed on", async () => {
    const mixed = [{ address: "93.184.215.14", family: 4 }, { address: "::ffff:7f00:1", family: 6 }]
    const refused = await lookupWith(mixed, true)
    expect(refused.error).toBeInstanceOf(RefusedAddress)
    expect(refused.error?.message).toContain("::ffff:7f00:1")
    expect((refused.error as RefusedAddress).code).toBe("ERR_WEBHOOK_ADDRESS_REFUSED")
    expect(await lookupWith(mixed, false)).toEqual({ error: null, addresses: mixed })
  })

  test("public answers are handed over as they came, filtered by the family asked for", async () => {
    const answers = [{ address: "2606:4700:4700::1111", family: 6 }, { address: "1.1.1.1", family: 4 }]
    expect(await lookupWith(answers, true)).toEqual({ error: null, addresses: answers })
    expect(await lookupWith(answers, true, { all: true, family: 4 })).toEqual({ error: null, addresses: [answers[1]] })
    expect(await lookupWith(answers, true, { all: false })).toEqual({ error: null, addresses: "2606:4700:4700::1111" })
    const none = await lookupWith([], true)
    expect((none.error as Error & { code?: string }).code).toBe("ENOTFOUND")
  })
})
