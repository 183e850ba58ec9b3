// The dev sign-in (no identity provider configured) makes anyone an administrator, so the real server answers it only
// to clients on its own machine: a server listening on every interface still refuses it through the network address.
import { networkInterfaces } from "node:os"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type RunningServer, startServer } from "../support/server.ts"

/** This machine's first non-loopback IPv4 address: connecting to it comes from it, not from 127.0.0.1. */
const networkAddress = (): string => {
  const address = Object.values(networkInterfaces()).flat().find((a) => a !== undefined && a.family === "IPv4" && !a.internal)?.address
  if (address === undefined) throw new Error("this test needs a non-loopback IPv4 interface (none found)")
  return address
}

describe("dev sign-in from another machine", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ env: { HOST: "0.0.0.0" } })
  })
  afterAll(async () => {
    expect(await server.stop()).toBe(0)
  })

  test("answers on loopback, and is refused with what to do instead through the network address", async () => {
    const port = new URL(server.baseUrl).port
    const local = await fetch(`http://127.0.0.1:${port}/auth/dev`)
    expect(local.status).toBe(200)
    expect(await local.text()).toContain('action="/auth/dev"')

    const remoteBase = `http://${networkAddress()}:${port}`
    const page = await fetch(`${remoteBase}/auth/dev`)
    expect(page.status).toBe(403)
    const text = await page.text()
    expect(text).toContain("Dev sign-in is local only")
    expect(text).toContain("OIDC_JWKS_URL")
    expect(text).not.toContain('action="/auth/dev"')

    const post = await fetch(`${remoteBase}/auth/dev`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: remoteBase },
      body: "user=mallory&admin=1&return_to=%2Fadmin",
    })
    expect(post.status).toBe(403)
    expect(post.headers.get("set-cookie")).toBeNull()
  })
})
