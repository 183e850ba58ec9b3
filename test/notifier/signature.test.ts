import { createHmac } from "node:crypto"
import { describe, expect, test } from "vitest"
import { REPLAY_TOLERANCE_SECONDS, signWebhook, verifyWebhook } from "../../adapters/notifier/webhookSignature.ts"

const SECRET = "whsec-0123456789abcdef0123456789abcdef"
const BODY = JSON.stringify({ id: "evt_1", type: "release.finalized", createdAt: "2026-05-01T10:00:00.000Z", data: { gameId: "gm_1", name: "été 😀" } })
const NOW = 1_777_000_000

const check = (overrides: Partial<Parameters<typeof verifyWebhook>[0]> = {}) =>
  verifyWebhook({ secret: SECRET, body: BODY, timestamp: String(NOW), signature: signWebhook(SECRET, NOW, BODY), nowSeconds: NOW, ...overrides })

describe("webhook signatures (v1 = HMAC-SHA256 over `timestamp.body`)", () => {
  test("signWebhook is the documented HMAC, so any language can check it", () => {
    const expected = createHmac("sha256", SECRET).update(`${NOW}.${BODY}`).digest("hex")
    expect(signWebhook(SECRET, NOW, BODY)).toBe(`v1=${expected}`)
  })

  test("verifyWebhook accepts the genuine request within the tolerance, either way", () => {
    expect(check()).toEqual({ ok: true, timestamp: NOW })
    expect(check({ nowSeconds: NOW + REPLAY_TOLERANCE_SECONDS }).ok).toBe(true)
    expect(check({ nowSeconds: NOW - REPLAY_TOLERANCE_SECONDS }).ok).toBe(true)
  })

  test("verifyWebhook rejects a tampered body, another secret, a moved timestamp, and replays older than 5 minutes", () => {
    expect(check({ body: BODY.replace("gm_1", "gm_2") })).toEqual({ ok: false, reason: "signature_mismatch" })
    expect(check({ body: `${BODY} ` })).toEqual({ ok: false, reason: "signature_mismatch" })
    expect(check({ secret: `${SECRET}x` })).toEqual({ ok: false, reason: "signature_mismatch" })
    expect(check({ timestamp: String(NOW + 1) })).toEqual({ ok: false, reason: "signature_mismatch" })
    expect(check({ nowSeconds: NOW + REPLAY_TOLERANCE_SECONDS + 1 })).toEqual({ ok: false, reason: "outside_tolerance" })
    expect(check({ nowSeconds: NOW - REPLAY_TOLERANCE_SECONDS - 1 })).toEqual({ ok: false, reason: "outside_tolerance" })
  })

  test("verifyWebhook rejects missing or malformed headers without throwing", () => {
    expect(check({ signature: null })).toEqual({ ok: false, reason: "missing_headers" })
    expect(check({ timestamp: undefined })).toEqual({ ok: false, reason: "missing_headers" })
    for (const timestamp of ["", "-1", "1e9", "12.5", " 1777000000"]) expect(check({ timestamp }).ok).toBe(false)
    for (const signature of ["", "v1=", "v0=" + "0".repeat(64), "v1=" + "g".repeat(64), "v1=" + "0".repeat(63), "garbage"]) {
      expect(check({ signature })).toEqual({ ok: false, reason: "signature_mismatch" })
    }
  })

  test("several signatures in one header (a rotated secret): any match counts", () => {
    const both = `${signWebhook("old-secret-old-secret-old-secret-0", NOW, BODY)} ${signWebhook(SECRET, NOW, BODY)}`
    expect(check({ signature: both }).ok).toBe(true)
    expect(check({ signature: both.replace(" ", ",") }).ok).toBe(true)
  })
})
