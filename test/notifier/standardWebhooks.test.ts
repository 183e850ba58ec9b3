import { Webhook } from "standardwebhooks"
import { describe, expect, test } from "vitest"
import { newWebhookSecret, standardWebhookHeaders, webhookKey } from "../../adapters/notifier/standardWebhooks.ts"
import { readReviewWebhook } from "../../adapters/notifier/webhookConfig.ts"

const BODY = JSON.stringify({ id: "evt_1", type: "release.approved", data: { gameId: "gm_1", name: "été 😀" } })
const now = () => Math.floor(Date.now() / 1000)

describe("Standard Webhooks signatures, verified with the standardwebhooks library", () => {
  test("a whsec_ secret: its base64 part is the key", () => {
    const secret = newWebhookSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const headers = standardWebhookHeaders(webhookKey(secret)!, "evt_1", now(), BODY)
    expect(new Webhook(secret).verify(BODY, headers)).toEqual(JSON.parse(BODY))
    expect(() => new Webhook(secret).verify(BODY.replace("gm_1", "gm_2"), headers)).toThrow()
    expect(() => new Webhook(newWebhookSecret()).verify(BODY, headers)).toThrow()
  })

  test("any other secret: its UTF-8 bytes are the key (format raw, given as bytes: the library reads a string as Latin-1)", () => {
    const secret = "a-raw-review-secret-with-ü-0123456789"
    const headers = standardWebhookHeaders(webhookKey(secret)!, "evt_2", now(), BODY)
    const receiver = new Webhook(new TextEncoder().encode(secret), { format: "raw" })
    expect(receiver.verify(BODY, headers)).toEqual(JSON.parse(BODY))
    expect(() => receiver.verify(BODY, { ...headers, "webhook-id": "evt_3" })).toThrow()
    const ascii = "x".repeat(40)
    expect(new Webhook(ascii, { format: "raw" }).verify(BODY, standardWebhookHeaders(webhookKey(ascii)!, "evt_4", now(), BODY))).toEqual(JSON.parse(BODY))
  })

  test("REVIEW_WEBHOOK_SECRET may be whsec_<base64> or a raw string; a whsec_ secret that is not base64 is refused", () => {
    const url = "https://hooks.example/review"
    for (const secret of [newWebhookSecret(), "x".repeat(32)]) {
      const errors: Array<string> = []
      expect(readReviewWebhook({ REVIEW_WEBHOOK_URL: url, REVIEW_WEBHOOK_SECRET: secret }, errors)?.secret).toBe(secret)
      expect(errors).toEqual([])
    }
    const errors: Array<string> = []
    expect(readReviewWebhook({ REVIEW_WEBHOOK_URL: url, REVIEW_WEBHOOK_SECRET: "whsec_not*base64*at*all*0123456789" }, errors)).toBeNull()
    expect(errors.join()).toContain("not base64")
  })
})
