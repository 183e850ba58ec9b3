/**
 * Whether the client is on this machine. The peer address is what Node's server saw (srvx's `request.ip`); a request
 * handed to the app in-process (tests, embedding) has none and is local by construction. A reverse proxy on the same
 * machine makes every client look local: what must not be public needs its own credential behind one.
 */
export const fromThisMachine = (request: Request): boolean => {
  const ip = (request as { readonly ip?: string | undefined }).ip
  return ip === undefined || ip === "::1" || /^(::ffff:)?127\./.test(ip)
}
