// Where a creator's webhook may connect: only to globally routable unicast addresses, or a creator could make the
// service call this machine, its private network or a cloud metadata endpoint (SSRF). The check sits in the socket's
// own `lookup` (webhookRequest.ts): the name is resolved once, every answer is checked, and the connection goes only to
// the addresses that were checked, so a name that answers differently the next time (DNS rebinding) gains nothing.
// WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1 (tests only) lifts it.
import { lookup } from "node:dns/promises"
import { BlockList, isIP, type LookupFunction } from "node:net"

type Subnet = readonly [prefix: string, length: number]

/** IPv4 ranges that are not public unicast (IANA special-purpose registry, multicast, reserved, broadcast). */
const REFUSED_V4: ReadonlyArray<Subnet> = [
  ["0.0.0.0", 8], // "this network", the unspecified address
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata endpoints
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
]

/** IPv6 ranges refused inside the address space below. */
const REFUSED_V6: ReadonlyArray<Subnet> = [
  ["2001::", 23], // IETF protocol assignments: Teredo (2001::/32, embeds an IPv4 address), benchmarking, ORCHID
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4 (embeds an IPv4 address)
  ["3fff::", 20], // documentation
]

/**
 * Where a public address can be: IPv6 global unicast (2000::/3), and IPv4 written as IPv6 — mapped (::ffff:0:0/96) or
 * NAT64 (64:ff9b::/96) — whose embedded IPv4 address is then checked. Everything else is refused: ::, ::1, the
 * IPv4-compatible ::/96, 64:ff9b:1::/48, fc00::/7, fe80::/10, fec0::/10, ff00::/8 and the unassigned space.
 */
const PUBLIC_SPACE_V6: ReadonlyArray<Subnet> = [["2000::", 3], ["::ffff:0:0", 96], ["64:ff9b::", 96]]

const blockList = (v4: ReadonlyArray<Subnet>, v6: ReadonlyArray<Subnet>): BlockList => {
  const list = new BlockList()
  for (const [prefix, length] of v4) list.addSubnet(prefix, length, "ipv4")
  for (const [prefix, length] of v6) list.addSubnet(prefix, length, "ipv6")
  return list
}

// BlockList compares an IPv4 address with IPv6 rules as ::ffff:a.b.c.d and an IPv4-mapped IPv6 address (in any
// spelling, ::ffff:7f00:1 included) with IPv4 rules, so mapped addresses need no rule of their own, and every IPv4
// address lies in PUBLIC_SPACE. NAT64 addresses get the IPv4 rules again under 64:ff9b::/96.
const PUBLIC_SPACE = blockList([], PUBLIC_SPACE_V6)
const REFUSED = blockList(REFUSED_V4, [...REFUSED_V6, ...REFUSED_V4.map(([v4, length]): Subnet => [`64:ff9b::${v4}`, 96 + length])])

/** True for a globally routable unicast address; false for every other address and for anything that is not one. */
export const isPublicAddress = (address: string): boolean => {
  const family = isIP(address)
  // A zone index (fe80::1%eth0) only means something on a link.
  if (family === 0 || address.includes("%")) return false
  const type = family === 4 ? "ipv4" : "ipv6"
  return PUBLIC_SPACE.check(address, type) && !REFUSED.check(address, type)
}

/** The connection was not made: the host is, or resolves to, an address that is not public. */
export class RefusedAddress extends Error {
  readonly code = "ERR_WEBHOOK_ADDRESS_REFUSED"
  readonly address: string
  constructor(address: string) {
    super(`refused: the host is or resolves to ${address}, not a public address (loopback, private, link-local or reserved)`)
    this.address = address
  }
}

export interface ResolvedAddress {
  readonly address: string
  readonly family: number
}

/** Every address of a host name, as the connection may use them. */
export type Resolver = (hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), as fetch and node:http use it. */
export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true })

/** An IP-literal host is connected to without a lookup: it is checked here instead. */
export const refusedLiteral = (host: string, publicOnly: boolean): RefusedAddress | null =>
  publicOnly && isIP(host) !== 0 && !isPublicAddress(host) ? new RefusedAddress(host) : null

const wantedFamily = (family: unknown): number => (family === 4 || family === "IPv4" ? 4 : family === 6 || family === "IPv6" ? 6 : 0)

/** Where a socket connects for an answer that passed the check: in production, that very answer. */
export type ConnectTo = (checked: ResolvedAddress) => ResolvedAddress

const theCheckedAnswer: ConnectTo = (checked) => checked

/**
 * A `lookup` for node:net sockets: resolves the name once; with `publicOnly`, fails with RefusedAddress when any answer
 * is not public (no connection is attempted); otherwise hands the socket exactly the answers it got (each through
 * `connectTo`, which only tests set: it points a checked public answer at a loopback stand-in, so no packet leaves
 * the machine).
 */
export const checkedLookup = (resolve: Resolver, publicOnly: boolean, connectTo: ConnectTo = theCheckedAnswer): LookupFunction => (hostname, options, callback) => {
  const answer = (answers: ReadonlyArray<ResolvedAddress>): ReadonlyArray<ResolvedAddress> | Error => {
    const refused = publicOnly ? answers.find((a) => !isPublicAddress(a.address)) : undefined
    if (refused !== undefined) return new RefusedAddress(refused.address)
    const family = wantedFamily(options.family)
    const usable = answers.filter((a) => family === 0 || a.family === family).map(connectTo)
    return usable.length > 0 ? usable : Object.assign(new Error("the host has no address"), { code: "ENOTFOUND" })
  }
  resolve(hostname).then(answer, (error: Error) => error).then((result) => {
    if (result instanceof Error) callback(result, "", 0)
    else if (options.all === true) callback(null, result.map(({ address, family }) => ({ address, family })))
    else callback(null, result[0]!.address, result[0]!.family)
  })
}
