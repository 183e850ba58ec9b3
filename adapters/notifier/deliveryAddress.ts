// Where a creator's webhook may be delivered: the URL's host must not resolve to this machine or a private network
// (a creator could otherwise make the service call its own internal endpoints). Checked at delivery time, on every
// address the name resolves to; WEBHOOK_ALLOW_PRIVATE_ADDRESSES=1 (tests only) lifts it. Used by the dispatcher
// (deliveryDestination.ts) before each attempt to a creator subscription.
import { lookup } from "node:dns/promises"
import { isIP } from "node:net"

const v4 = (address: string): ReadonlyArray<number> => address.split(".").map(Number)

/** Loopback, private, link-local, unspecified, CGNAT, multicast and reserved ranges (IPv4, IPv6, IPv4-mapped IPv6). */
export const isPrivateAddress = (address: string): boolean => {
  const family = isIP(address)
  if (family === 4) {
    const [a, b] = v4(address) as [number, number]
    return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || a >= 224
  }
  if (family === 6) {
    const lower = address.toLowerCase()
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
    if (mapped !== null) return isPrivateAddress(mapped[1]!)
    return lower === "::" || lower === "::1" || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || /^ff/.test(lower)
  }
  return true
}

/** null when every address `hostname` resolves to may be called; otherwise why not. */
export const refusedDestination = async (hostname: string, allowPrivate: boolean): Promise<string | null> => {
  if (allowPrivate) return null
  const host = hostname.replace(/^\[|\]$/g, "")
  const addresses = isIP(host) !== 0 ? [host] : (await lookup(host, { all: true, verbatim: true })).map((r) => r.address)
  const refused = addresses.find(isPrivateAddress)
  return refused === undefined ? null : `${hostname} resolves to a loopback, private or link-local address`
}
