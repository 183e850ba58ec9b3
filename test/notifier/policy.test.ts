import { describe, expect, test } from "vitest"
import { DEFAULT_DELIVERY_POLICY, leaseDurationMs, retryDelayMs } from "../../adapters/notifier/WebhookDispatcher.ts"
import { readReviewWebhook } from "../../adapters/notifier/webhookConfig.ts"

const SECRET = "s".repeat(32)

describe("retryDelayMs: exponential backoff with equal jitter, capped", () => {
  const policy = { retryBaseMs: 1000, retryCapMs: 3_600_000 }

  test("the n-th retry waits between half and all of base · 2^(n-1)", () => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      const ceiling = 1000 * 2 ** (attempt - 1)
      expect([retryDelayMs(attempt, policy, 0), retryDelayMs(attempt, policy, 0.999999)]).toEqual([ceiling / 2, ceiling])
    }
  })

  test("never more than the cap, however many attempts; never negative or NaN", () => {
    for (const attempt of [13, 20, 100, 10_000]) {
      expect(retryDelayMs(attempt, policy, 0.999999)).toBeLessThanOrEqual(3_600_000)
      expect(retryDelayMs(attempt, policy, 0.999999)).toBeGreaterThan(3_599_000)
      expect(retryDelayMs(attempt, policy, 0)).toBe(1_800_000)
    }
    expect(retryDelayMs(0, policy, 0.5)).toBe(750)
  })

  test("the defaults: 10 s first, an hour at most, given up after 72 h; the lease outlives a timed-out request", () => {
    expect(retryDelayMs(1, DEFAULT_DELIVERY_POLICY, 1)).toBe(10_000)
    expect(DEFAULT_DELIVERY_POLICY.retryCapMs).toBe(3_600_000)
    expect(DEFAULT_DELIVERY_POLICY.maxAgeMs).toBe(72 * 3_600_000)
    expect(leaseDurationMs(DEFAULT_DELIVERY_POLICY)).toBeGreaterThan(2 * DEFAULT_DELIVERY_POLICY.requestTimeoutMs)
  })
})

describe("readReviewWebhook (REVIEW_WEBHOOK_*)", () => {
  const read = (env: Record<string, string>) => {
    const errors: Array<string> = []
    return { config: readReviewWebhook(env, errors), errors }
  }

  test("unset URL: no webhook, no errors (a secret alone is ignored)", () => {
    expect(read({})).toEqual({ config: null, errors: [] })
    expect(read({ REVIEW_WEBHOOK_URL: "", REVIEW_WEBHOOK_SECRET: SECRET })).toEqual({ config: null, errors: [] })
  })

  test("URL and secret: the webhook with the default retry base, or the configured one", () => {
    expect(read({ REVIEW_WEBHOOK_URL: "https://hooks.example.com/pckgate", REVIEW_WEBHOOK_SECRET: SECRET })).toEqual({
      config: { url: "https://hooks.example.com/pckgate", secret: SECRET, retryBaseMs: 10_000 },
      errors: [],
    })
    expect(read({ REVIEW_WEBHOOK_URL: "http://127.0.0.1:9/x", REVIEW_WEBHOOK_SECRET: SECRET, REVIEW_WEBHOOK_RETRY_BASE_MS: "50" }).config?.retryBaseMs).toBe(50)
  })

  test("every problem is reported at once, and neither the URL nor the secret is quoted", () => {
    const url = "ftp://user:token-in-url@hooks.example.com/T0KEN"
    const { config, errors } = read({ REVIEW_WEBHOOK_URL: url, REVIEW_WEBHOOK_SECRET: "short-secret", REVIEW_WEBHOOK_RETRY_BASE_MS: "0" })
    expect(config).toBeNull()
    expect(errors).toHaveLength(4)
    expect(errors.join("\n")).toMatch(/http or https[\s\S]*user:password@[\s\S]*at least 32 characters \(got 12\)[\s\S]*RETRY_BASE_MS/)
    for (const secret of ["token-in-url", "T0KEN", "short-secret"]) expect(errors.join("\n")).not.toContain(secret)
    expect(read({ REVIEW_WEBHOOK_URL: "https://hooks.example.com/" }).errors).toEqual([
      "REVIEW_WEBHOOK_SECRET is required when REVIEW_WEBHOOK_URL is set (at least 32 characters)",
    ])
    expect(read({ REVIEW_WEBHOOK_URL: "not a url", REVIEW_WEBHOOK_SECRET: SECRET }).errors).toEqual(["REVIEW_WEBHOOK_URL must be an absolute http(s) URL"])
  })
})
