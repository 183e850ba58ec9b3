// One table from error codes to exit codes (api-conventions.md), complete for the service's codes, documented in the
// README as it is in the code, and applied to whatever the service answers.
import { describe, expect, test } from "vitest"
import { DEPENDENCY_FAILURE, ERROR_TABLE } from "../../adapters/http/errorTable.ts"
import { commands } from "../../apps/cli/commands.ts"
import { EXIT, EXIT_BY_ERROR_CODE, exitCodeFor } from "../../apps/cli/exitCodes.ts"
import type { CliIo } from "../../apps/cli/io.ts"
import { type FakeRoutes, startFakeService } from "./support/fakeService.ts"
import { README_SOURCES, readSection } from "./support/readme.ts"

describe("the exit-code table", () => {
  test("has a row for every code the service answers", () => {
    const serviceCodes = [...Object.values(ERROR_TABLE), ...Object.values(DEPENDENCY_FAILURE)].map(([, code]) => code)
    expect(serviceCodes.filter((code) => !Object.hasOwn(EXIT_BY_ERROR_CODE, code))).toEqual([])
  })

  test("sorts conflicts as the conventions do: never clearing → 2, clearing with time → 6", () => {
    for (const code of ["version_exists", "release_not_pending", "release_not_activatable", "findings_unresolved", "slug_taken", "not_found"]) {
      expect(exitCodeFor({ code, status: 409 }), code).toBe(EXIT.cannotRun)
    }
    for (const code of ["scan_pending", "claimed"]) expect(exitCodeFor({ code, status: 409 }), code).toBe(EXIT.tryAgainLater)
    expect(exitCodeFor({ code: "rate_limited", status: 429 })).toBe(EXIT.rateLimited)
    expect(exitCodeFor({ code: "Static analysis failed", status: 422 })).toBe(EXIT.rejectedOrFindings)
    for (const code of ["service_unavailable", "finalize_failed", "internal", "network"]) expect(exitCodeFor({ code }), code).toBe(EXIT.serviceFailure)
  })

  test("classifies a code it does not know by its HTTP status", () => {
    expect([409, 400, 404, 429, 408, 500, 503].map((status) => exitCodeFor({ code: "from_a_newer_service", status }))).toEqual([2, 2, 2, 4, 3, 3, 3])
  })

  test(`is the README's table (${README_SOURCES.commandLine}), row by row`, () => {
    const rows = readSection("commandLine", "### Exit codes").split("\n").filter((line) => /^\| \d \|/.test(line))
    const documented: Record<string, number> = {}
    for (const row of rows) {
      const cells = row.split("|")
      const exit = Number(cells[1])
      for (const [, code] of cells.at(-2)!.matchAll(/`([^`]+)`/g)) documented[code!] = exit
    }
    expect(rows.map((row) => Number(row.split("|")[1]))).toEqual(Object.values(EXIT))
    expect(documented).toEqual(EXIT_BY_ERROR_CODE)
  })
})

describe("what the service answers becomes the exit code", () => {
  const answers: ReadonlyArray<readonly [status: number, body: unknown, exit: number]> = [
    [409, { error: "scan_pending", detail: "The scan has not finished; retry in a minute." }, 6],
    [409, { error: "claimed", detail: "Another reviewer holds this release." }, 6],
    [409, { error: "release_not_activatable", detail: "Only approved releases can be activated." }, 2],
    [409, { error: "findings_unresolved", detail: "Resolve the findings first." }, 2],
    [409, { error: "version_exists", detail: "Choose a higher version." }, 2],
    [409, { error: "a_conflict_of_tomorrow", detail: "…" }, 2],
    [404, { error: "game_not_found_or_forbidden", detail: "No such game of yours." }, 2],
    [429, { error: "rate_limited", detail: "Retry later.", retryAfterSeconds: 30 }, 4],
    [503, { error: "service_unavailable", detail: "Retry in a moment." }, 3],
    [502, "<html>Bad Gateway</html>", 3],
  ]

  test.each(answers.map(([status, body, exit], i) => [i, status, typeof body === "string" ? body : (body as { error: string }).error, exit] as const))(
    "#%i: %i %s → exit %i",
    async (i, status, code, exit) => {
      const [, body] = answers[i]!
      const routes: FakeRoutes = { "GET /api/games/gm_x": { status, body, headers: status === 429 ? { "retry-after": "30" } : {} } }
      const fake = await startFakeService(routes)
      let stdout = ""
      let stderr = ""
      const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: { PCKGATE_URL: fake.url, PCKGATE_TOKEN: "t" }, stderrIsTty: false }
      const result = await (await commands.status()).run(["gm_x", "--json"], io)
      await fake.stop()
      expect(result, stderr).toBe(exit)
      expect(JSON.parse(stdout)).toMatchObject({ ok: false, error: typeof body === "string" ? `http_${status}` : code })
      expect(stderr).toMatch(new RegExp(`^error: ${typeof body === "string" ? `http_${status}` : code} — `))
    },
  )
})
