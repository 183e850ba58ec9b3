// The review gate over app.fetch on the memory adapters, with the real packs Godot exported in the global setup (so it
// lives outside test/http, whose files also run under Deno without that setup).
import { Effect, Option } from "effect"
import { describe, expect, test } from "vitest"
import { ReviewGateStore } from "../../ports/ReviewGateStore.ts"
import { artifact } from "../support/api.ts"
import { sha256Hex } from "../support/streams.ts"
import { makeTestApp, newGame, release, type TestAppOptions } from "../support/testApp.ts"
import { pack } from "../submit/fixtures.ts"

const OVERRIDE = { override: { reason: "Reviewed by hand: the shell call is the documented level editor" } }

const packRelease = (name: string, version = "1.0.0") => {
  const bytes = pack(name).bytes
  return { bytes, declaration: { version, sha256: sha256Hex(bytes), sizeBytes: bytes.length } }
}

const setup = async (options: TestAppOptions = {}) => {
  const t = await makeTestApp(options)
  const owner = await t.token("owner")
  const admin = await t.token("admin", { admin: true })
  const gameId = await newGame(t, owner, "Gated Game")
  const ship = async (pck: { bytes: Uint8Array; declaration: object }) => expect((await release(t, owner, gameId, pck)).status).toBe(201)
  const detail = async (version: string, token: string | null = owner) =>
    (await t.api.call("GET", `/api/games/${gameId}/releases/${version}`, token === null ? {} : { token })).body
  return { t, owner, admin, gameId, ship, detail }
}

interface ShownFinding {
  readonly severity: string
  readonly rule: string
  readonly fingerprint?: string
  readonly accepted: unknown
}

const errorFindings = (scan: { report: { findings: ReadonlyArray<ShownFinding> } }): ReadonlyArray<ShownFinding> =>
  scan.report.findings.filter((f) => f.severity === "error" || ["pack-not-godot", "pack-truncated", "resource-unreadable"].includes(f.rule))

describe("the review gate: approval waits for the scan and for every error finding to be resolved", () => {
  test("before the scan has run, approval is 409 scan_pending even with an override; rejecting is allowed", async () => {
    const { t, admin, gameId, ship, detail } = await setup({ scanWorker: false })
    await ship(packRelease("clean"))
    await ship(packRelease("clean", "1.1.0"))
    for (const body of [undefined, OVERRIDE]) {
      const refused = await t.api.approve(admin, gameId, "1.0.0", body)
      expect([refused.status, refused.body.error]).toEqual([409, "scan_pending"])
      expect(refused.body.detail).toContain("/scan")
    }
    expect(await detail("1.0.0")).toMatchObject({ status: "pending_review", scan: { status: "pending", errors: null, warnings: null }, approvalOverride: null })
    const rejected = await t.api.reject(admin, gameId, "1.1.0", "Wrong build")
    expect(rejected.status).toBe(200)
    expect(rejected.body).toMatchObject({ status: "rejected", scan: { status: "pending" }, approvalOverride: null })
    const queue = (await t.api.call("GET", "/api/admin/review-queue", { token: admin })).body.items
    expect(queue).toEqual([expect.objectContaining({ version: "1.0.0", scan: { status: "pending", errors: null, warnings: null }, capabilitiesAdded: [], claimedBy: null })])
    await t.dispose()
  })

  test("error findings answer 409 findings_unresolved with their count; an override reason approves and is kept", async () => {
    const { t, owner, admin, gameId, ship, detail } = await setup()
    await ship(packRelease("violations"))
    const scan = await t.api.scanned(owner, gameId, "1.0.0")
    const errors = errorFindings(scan).length
    expect(errors).toBeGreaterThan(0)
    const refused = await t.api.approve(admin, gameId, "1.0.0")
    expect([refused.status, refused.body.error, refused.body.unresolvedErrors]).toEqual([409, "findings_unresolved", errors])
    expect(refused.body.detail).toContain("override")
    for (const bad of [{ override: {} }, { override: { reason: "" } }, { override: { reason: "x".repeat(2001) } }, { override: { reason: "a\u202Eb" } }, { override: "yes" }]) {
      const reply = await t.api.approve(admin, gameId, "1.0.0", bad)
      expect([reply.status, reply.body.error]).toEqual([400, "invalid_request"])
    }
    expect((await detail("1.0.0")).status).toBe("pending_review")
    const approved = await t.api.approve(admin, gameId, "1.0.0", OVERRIDE)
    expect(approved.status).toBe(200)
    const override = { reason: OVERRIDE.override.reason, by: "admin", at: approved.body.reviewedAt }
    expect(approved.body).toMatchObject({ status: "approved", scan: { status: "scanned", errors, warnings: scan.report.findings.length - errors }, approvalOverride: override })
    expect(await detail("1.0.0")).toMatchObject({ status: "approved", scan: { status: "scanned", errors }, approvalOverride: override })
    expect(await detail("1.0.0", admin)).toMatchObject({ approvalOverride: override })
    const timeline = (await t.api.call("GET", `/api/games/${gameId}/timeline`, { token: admin })).body.events as Array<{ kind: string; reason: string | null }>
    expect(timeline.find((e) => e.kind === "approved")).toMatchObject({ version: "1.0.0", actor: "user:admin", reason: OVERRIDE.override.reason, at: approved.body.reviewedAt })
    // Everyone else sees the public release: no review fields.
    for (const token of [await t.token("stranger"), null]) {
      const seen = await detail("1.0.0", token)
      expect(seen).toMatchObject({ version: "1.0.0" })
      expect(seen.scan).toBeUndefined()
      expect(seen.approvalOverride).toBeUndefined()
    }
    await t.dispose()
  })

  test("a scan that could not read the pack (random bytes) counts as error findings", async () => {
    const { t, owner, admin, gameId, ship } = await setup()
    await ship(artifact(4096, "1.0.0"))
    const scan = await t.api.scanned(owner, gameId, "1.0.0")
    expect(scan.report.findings.map((f: { rule: string }) => f.rule)).toContain("pack-not-godot")
    const refused = await t.api.approve(admin, gameId, "1.0.0")
    expect([refused.status, refused.body.error, refused.body.unresolvedErrors]).toEqual([409, "findings_unresolved", errorFindings(scan).length])
    await t.dispose()
  })

  test("a clean pack passes the gate without an override; approval answers the scan state", async () => {
    const { t, owner, admin, gameId, ship } = await setup()
    await ship(packRelease("clean"))
    await t.api.scanned(owner, gameId, "1.0.0")
    const approved = await t.api.approve(admin, gameId, "1.0.0")
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ scan: { status: "scanned", errors: 0 }, approvalOverride: null })
    await t.dispose()
  })
})

describe("accepted findings", () => {
  test("accepting every error finding with a reason lets approval through; accepted findings stay listed with who and why", async () => {
    const { t, owner, admin, gameId, ship } = await setup()
    await ship(packRelease("violations"))
    const scan = await t.api.scanned(owner, gameId, "1.0.0")
    const fingerprints = [...new Set(errorFindings(scan).map((f: { fingerprint?: string }) => f.fingerprint!))]
    expect(fingerprints.every((f) => typeof f === "string" && f.length > 0)).toBe(true)
    const path = (fp: string) => `/api/admin/games/${gameId}/findings/${fp}/accept`
    // Refusals: not an administrator, no reason, an unknown finding, an unknown game.
    expect((await t.api.call("POST", path(fingerprints[0]!), { token: owner, body: { reason: "mine" } })).status).toBe(404)
    expect((await t.api.call("POST", path(fingerprints[0]!), { token: admin, body: { reason: " " } })).body.error).toBe("invalid_request")
    expect((await t.api.call("POST", path("no-such-finding"), { token: admin, body: { reason: "ok" } })).body.error).toBe("not_found")
    expect((await t.api.call("POST", path("..%2F..%2Fx"), { token: admin, body: { reason: "ok" } })).body.error).toBe("not_found")
    const otherGame = await t.api.call("POST", `/api/admin/games/gm_nope/findings/${fingerprints[0]}/accept`, { token: admin, body: { reason: "ok" } })
    expect([otherGame.status, otherGame.body.error]).toEqual([404, "game_not_found_or_forbidden"])
    for (const [i, fp] of fingerprints.entries()) {
      const accepted = await t.api.call("POST", path(fp), { token: admin, body: { reason: `Needed for the level editor (${i})` } })
      expect(accepted.status).toBe(200)
      expect(accepted.body).toMatchObject({ gameId, fingerprint: fp, accepted: { by: "admin", reason: `Needed for the level editor (${i})` } })
    }
    const shown = (await t.api.call("GET", `/api/games/${gameId}/releases/1.0.0/scan`, { token: owner })).body.report.findings
    expect(shown).toHaveLength(scan.report.findings.length)
    for (const finding of errorFindings({ report: { findings: shown } })) {
      expect(finding).toMatchObject({ accepted: { by: "admin", reason: expect.stringContaining("level editor") } })
    }
    // Withdrawing one blocks approval again, with exactly the findings that share its fingerprint.
    expect((await t.api.call("DELETE", path(fingerprints[0]!), { token: admin })).status).toBe(204)
    expect((await t.api.call("DELETE", path(fingerprints[0]!), { token: admin })).status).toBe(404)
    const sharing = errorFindings(scan).filter((f: { fingerprint?: string }) => f.fingerprint === fingerprints[0]).length
    expect((await t.api.approve(admin, gameId, "1.0.0")).body).toMatchObject({ error: "findings_unresolved", unresolvedErrors: sharing })
    expect((await t.api.call("POST", path(fingerprints[0]!), { token: admin, body: { reason: "Fine after all" } })).status).toBe(200)
    const approved = await t.api.approve(admin, gameId, "1.0.0")
    expect([approved.status, approved.body.approvalOverride]).toEqual([200, null])
    // The owner's timeline names each acceptance and withdrawal with its fingerprint; the approval had no override.
    const timeline = (await t.api.call("GET", `/api/games/${gameId}/timeline`, { token: owner })).body.events as Array<{ kind: string; reason: string | null; actor: string }>
    const gate = timeline.filter((e) => e.kind.startsWith("finding_") || e.kind === "approved").map((e) => [e.kind, e.reason, e.actor])
    expect(gate).toEqual([
      ...fingerprints.map((fp, i) => ["finding_accepted", `${fp}: Needed for the level editor (${i})`, "user:admin"]),
      ["finding_acceptance_withdrawn", fingerprints[0], "user:admin"],
      ["finding_accepted", `${fingerprints[0]}: Fine after all`, "user:admin"],
      ["approved", null, "user:admin"],
    ])
    await t.dispose()
  })

  test("acceptances hold for later versions of the game: only findings that are new count", async () => {
    const { t, owner, admin, gameId, ship } = await setup()
    await ship(packRelease("violations"))
    const first = await t.api.scanned(owner, gameId, "1.0.0")
    for (const fp of new Set(errorFindings(first).map((f: { fingerprint?: string }) => f.fingerprint!))) {
      expect((await t.api.call("POST", `/api/admin/games/${gameId}/findings/${fp}/accept`, { token: admin, body: { reason: "ok" } })).status).toBe(200)
    }
    await ship(packRelease("violations", "1.1.0"))
    const second = await t.api.scanned(owner, gameId, "1.1.0")
    const unaccepted = errorFindings(second).filter((f: { accepted: unknown }) => f.accepted === null).length
    const reply = await t.api.approve(admin, gameId, "1.1.0")
    if (unaccepted === 0) expect(reply.status).toBe(200)
    else expect([reply.status, reply.body.unresolvedErrors]).toEqual([409, unaccepted])
    // Most of 1.0.0's findings are 1.1.0's findings too (same scripts, same lines): they stay accepted.
    expect(errorFindings(second).filter((f: { accepted: unknown }) => f.accepted !== null).length).toBe(errorFindings(first).length)
    await t.dispose()
  })
})

describe("claims", () => {
  test("a claim holds the release for 30 minutes: another admin cannot claim or decide it; the holder renews; a decision ends it", async () => {
    const { t, gameId, ship, admin } = await setup({ scanWorker: false })
    const other = await t.token("admin-b", { admin: true })
    await ship(artifact(2048, "1.0.0"))
    await ship(artifact(2048, "1.1.0"))
    const claim = (token: string, version = "1.0.0", method = "POST") => t.api.call(method, `/api/admin/games/${gameId}/releases/${version}/claim`, { token })
    const first = await claim(admin)
    expect(first.status).toBe(200)
    const until = new Date(t.clock.current().getTime() + 30 * 60_000).toISOString()
    expect(first.body).toEqual({ gameId, version: "1.0.0", claimedBy: "admin", claimedUntil: until })
    const taken = await claim(other)
    expect([taken.status, taken.body.error, taken.body.claimedBy, taken.body.claimedUntil]).toEqual([409, "claimed", "admin", until])
    expect(taken.body.detail).toContain("admin")
    // Claimed comes before scan_pending: the other admin is told who holds it.
    expect((await t.api.approve(other, gameId, "1.0.0", OVERRIDE)).body.error).toBe("claimed")
    expect((await t.api.reject(other, gameId, "1.0.0", "no")).body.error).toBe("claimed")
    expect((await claim(other, "1.0.0", "DELETE")).body.error).toBe("claimed")
    const queue = (await t.api.call("GET", "/api/admin/review-queue", { token: other })).body.items
    expect(queue.map((i: { version: string; claimedBy: string | null }) => [i.version, i.claimedBy])).toEqual([["1.0.0", "admin"], ["1.1.0", null]])
    // Renewal moves the end; after it passes, anyone may claim.
    t.clock.advance(10 * 60)
    const renewed = await claim(admin)
    expect(renewed.body.claimedUntil).toBe(new Date(t.clock.current().getTime() + 30 * 60_000).toISOString())
    t.clock.advance(30 * 60 + 1)
    expect((await claim(other)).body.claimedBy).toBe("admin-b")
    // The holder rejects (allowed while the scan is pending); the decision ends the claim.
    expect((await t.api.reject(other, gameId, "1.0.0", "Not a pack")).status).toBe(200)
    expect(Option.isNone(await t.runtime.runPromise(ReviewGateStore.use((g) => g.getClaim(gameId, "1.0.0"))))).toBe(true)
    expect((await claim(admin)).body.error).toBe("release_not_pending")
    // Releasing one's own claim; unknown releases; non-administrators.
    expect((await claim(admin, "1.1.0")).status).toBe(200)
    expect((await claim(admin, "1.1.0", "DELETE")).status).toBe(204)
    expect((await claim(other, "1.1.0")).status).toBe(200)
    expect((await claim(admin, "7.7.7")).status).toBe(404)
    expect((await claim(await t.token("owner"), "1.1.0")).status).toBe(404)
    // The timeline records each claim taken (not the renewal, not the release of one's own claim) and the decision.
    const events = (await t.api.call("GET", `/api/games/${gameId}/timeline`, { token: admin })).body.events as Array<{ kind: string; version: string; actor: string }>
    expect(events.filter((e) => e.kind === "claimed" || e.kind === "rejected").map((e) => [e.kind, e.version, e.actor])).toEqual([
      ["claimed", "1.0.0", "user:admin"],
      ["claimed", "1.0.0", "user:admin-b"],
      ["rejected", "1.0.0", "user:admin-b"],
      ["claimed", "1.1.0", "user:admin"],
      ["claimed", "1.1.0", "user:admin-b"],
    ])
    await t.dispose()
  })
})

describe("the review queue carries the gate's columns", () => {
  test("scan counts and the capabilities a release adds to the active one", async () => {
    const { t, owner, admin, gameId, ship } = await setup()
    await ship(packRelease("clean"))
    await t.api.scanned(owner, gameId, "1.0.0")
    expect((await t.api.approve(admin, gameId, "1.0.0")).status).toBe(200)
    await ship(packRelease("violations", "1.1.0"))
    const scan = await t.api.scanned(owner, gameId, "1.1.0")
    const items = (await t.api.call("GET", "/api/admin/review-queue", { token: admin })).body.items
    const errors = errorFindings(scan).length
    const capabilities = Object.keys(scan.report.capabilities ?? {}).sort()
    expect(capabilities.length).toBeGreaterThan(0)
    expect(items).toEqual([
      expect.objectContaining({
        version: "1.1.0",
        scan: { status: "scanned", errors, warnings: scan.report.findings.length - errors },
        capabilitiesAdded: capabilities,
        claimedBy: null,
      }),
    ])
    await t.dispose()
  })
})
