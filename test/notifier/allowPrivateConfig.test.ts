// WEBHOOK_ALLOW_PRIVATE_ADDRESSES is off unless set to exactly 1 (it is for tests only).
import { expect, test } from "vitest"
import { readConfig } from "../../apps/server/config.ts"

const flag = (env: Record<string, string>) => {
  const read = readConfig(env)
  if (!("config" in read)) throw new Error(read.errors.join("; "))
  return read.config.webhookAllowPrivateAddresses
}

test("WEBHOOK_ALLOW_PRIVATE_ADDRESSES: off by default and for anything but 1", () => {
  expect(flag({})).toBe(false)
  expect(flag({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true" })).toBe(false)
  expect(flag({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "1" })).toBe(true)
})
