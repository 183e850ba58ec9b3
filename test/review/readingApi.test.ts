import { afterEach, beforeEach, describe, expect, test } from "vitest"
import { utf8 } from "../scanner/support/bytes.ts"
import { makeTestApp, type TestApp } from "../support/testApp.ts"
import { MAIN_V1, MAIN_V2, readingGame, readingPack, sha256Hex, shipPack } from "./support.ts"

let t: TestApp
let who: Awaited<ReturnType<typeof readingGame>>
const base = () => `/api/admin/games/${who.gameId}/releases`
const get = (path: string, token: string | undefined = who.admin) => t.api.call("GET", path, token === undefined ? {} : { token })

beforeEach(async () => {
  t = await makeTestApp()
  who = await readingGame(t)
  await shipPack(t, who.owner, who.gameId, "1.0.0", readingPack("1.0.0", MAIN_V1))
})
afterEach(() => t.dispose())

describe("GET …/files lists a release's entries as a reviewer knows them", () => {
  test("creator paths, stored paths, built-in scripts, kinds, hashes and finding counts", async () => {
    const reply = await get(`${base()}/1.0.0/files`)
    expect(reply.status).toBe(200)
    expect(reply.body.nextCursor).toBeNull()
    const byPath = new Map(reply.body.files.map((f: { path: string }) => [f.path, f]))
    expect(reply.body.files.map((f: { path: string }) => f.path)).toEqual([
      "res://icon.png", "res://main.gd", "res://main.tscn", "res://main.tscn::1", "res://manifest.json", "res://player.gd",
      "res://player.gd.remap", "res://project.binary",
    ])
    expect(byPath.get("res://main.gd")).toEqual({
      path: "res://main.gd", sizeBytes: utf8(MAIN_V1).length, kind: "script", sha256: sha256Hex(utf8(MAIN_V1)), findingCount: 1,
    })
    expect(byPath.get("res://player.gd")).toMatchObject({ storedPath: "res://player.gdc", kind: "binary" })
    expect(byPath.get("res://main.tscn::1")).toMatchObject({ embeddedIn: "res://main.tscn", kind: "script" })
    expect(byPath.get("res://player.gd.remap")).toMatchObject({ kind: "remap" })
    expect(byPath.get("res://project.binary")).toMatchObject({ kind: "project" })
    expect(byPath.get("res://manifest.json")).toMatchObject({ kind: "manifest" })
    expect(byPath.get("res://icon.png")).toMatchObject({ kind: "binary" })
  })

  test("pages by an opaque cursor to exactly the whole list", async () => {
    const all = (await get(`${base()}/1.0.0/files`)).body.files
    const seen: Array<unknown> = []
    let cursor: string | null = null
    do {
      const page: { status: number; body: any } = await get(`${base()}/1.0.0/files?limit=3${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`)
      expect(page.status).toBe(200)
      expect(page.body.files.length).toBeLessThanOrEqual(3)
      seen.push(...page.body.files)
      cursor = page.body.nextCursor
    } while (cursor !== null)
    expect(seen).toEqual(all)
  })

  test("bad limits and cursors are 400 invalid_request naming the parameter", async () => {
    for (const query of ["limit=0", "limit=1001", "limit=abc", "limit=1.5", "limit=-1", "limit=", "cursor=", "cursor=%%%", "cursor=zzzz!", `cursor=${"A".repeat(100000)}`]) {
      const reply = await get(`${base()}/1.0.0/files?${query}`)
      expect([reply.status, reply.body.error], query).toEqual([400, "invalid_request"])
      expect(reply.body.detail).toMatch(/limit|cursor/)
    }
  })
})

describe("GET …/file shows one entry", () => {
  test("a script's text with its findings at their lines", async () => {
    const reply = await get(`${base()}/1.0.0/file?path=${encodeURIComponent("res://main.gd")}`)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ path: "res://main.gd", kind: "script", text: MAIN_V1, truncated: false })
    expect(reply.body.findings).toEqual([expect.objectContaining({ file: "res://main.gd", line: 5, pattern: expect.stringContaining("OS.execute") })])
  })

  test("project.binary decoded to the project.godot text form", async () => {
    const reply = await get(`${base()}/1.0.0/file?path=${encodeURIComponent("res://project.binary")}`)
    expect(reply.status).toBe(200)
    expect(reply.body.text).toContain('config_version=4\n\n[application]\n\nconfig/name="Reading Test"\n\n[display]\n\nwindow/size/fullscreen=true\n')
  })

  test("a built-in script by <scene>::<id>, a remapped compiled script as binary with its head", async () => {
    const builtIn = await get(`${base()}/1.0.0/file?path=${encodeURIComponent("res://main.tscn::1")}`)
    expect(builtIn.body).toMatchObject({ kind: "script", text: 'extends Node\n\nfunc _ready():\n\tprint("built in")\n' })
    const compiled = await get(`${base()}/1.0.0/file?path=${encodeURIComponent("res://player.gd")}`)
    expect(compiled.body).toMatchObject({ kind: "binary", text: null, head: expect.stringMatching(/^47445343/) })
    expect(compiled.body.head).toHaveLength(128)
  })

  test("odd paths are 400, unknown ones 404 not_found", async () => {
    for (const path of ["", "main.gd", "res://../etc/passwd", "res://a/../main.gd", "res://a//b", "res://./main.gd", "res://a\\b", "res://a\u0000b", "res://main.tscn::../x", "/etc/passwd"]) {
      const reply = await get(`${base()}/1.0.0/file?path=${encodeURIComponent(path)}`)
      expect([reply.status, reply.body.error], JSON.stringify(path)).toEqual([400, "invalid_request"])
    }
    expect((await get(`${base()}/1.0.0/file`)).status).toBe(400)
    for (const path of ["res://nope.gd", "res://main.tscn::9", "res://main.gd::1"]) {
      const reply = await get(`${base()}/1.0.0/file?path=${encodeURIComponent(path)}`)
      expect([reply.status, reply.body.error], path).toEqual([404, "not_found"])
    }
  })
})

describe("GET …/diff compares a release with the active one", () => {
  test("changed files with unified diffs, capabilities added, findings new and carried", async () => {
    expect((await t.api.approveScanned(who.admin, who.gameId, "1.0.0")).status).toBe(200)
    await shipPack(t, who.owner, who.gameId, "1.1.0", readingPack("1.1.0", MAIN_V2, [{ path: "res://notes.txt", data: utf8("new\n") }]))
    const reply = await get(`${base()}/1.1.0/diff`)
    expect(reply.status).toBe(200)
    expect(reply.body.against).toBe("1.0.0")
    expect(reply.body.files.map((f: { path: string; change: string }) => `${f.change} ${f.path}`)).toEqual([
      "modified res://main.gd", "modified res://manifest.json", "added res://notes.txt",
    ])
    const main = reply.body.files[0]
    expect(main.unified).toContain('-\tprint("hello")\n+\tprint("hello again")\n')
    expect(main.unified).toContain('+\tf.open("user://save.txt", File.WRITE)\n')
    expect(reply.body.capabilities.added).toContain("file-writes")
    expect(reply.body.findings.carried).toEqual(expect.arrayContaining([expect.objectContaining({ file: "res://main.gd", pattern: expect.stringContaining("OS.execute") })]))
    expect(reply.body.findings.fixed).toEqual([])
    expect(reply.body.findings.new).toEqual([])
    const explicit = await get(`${base()}/1.1.0/diff?against=1.1.0`)
    expect(explicit.body).toMatchObject({ against: "1.1.0", files: [], capabilities: { added: [], removed: [] } })
  })

  test("without an active release every file is added", async () => {
    const reply = await get(`${base()}/1.0.0/diff`)
    expect(reply.body.against).toBeNull()
    expect(reply.body.files.every((f: { change: string }) => f.change === "added")).toBe(true)
    expect(reply.body.files).toHaveLength(8)
  })

  test("a bad or unknown `against` is 400 or 404", async () => {
    expect((await get(`${base()}/1.0.0/diff?against=..`)).status).toBe(400)
    expect((await get(`${base()}/1.0.0/diff?against=${"9".repeat(500)}`)).status).toBe(400)
    const unknown = await get(`${base()}/1.0.0/diff?against=9.9.9`)
    expect([unknown.status, unknown.body.error]).toEqual([404, "not_found"])
  })
})

describe("findings in /file and /diff carry their docs page and their acceptance", () => {
  const acceptedBy = (reason: string) => ({ by: "admin", at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), reason })

  test("docsUrl as the scan report answers it; accepted null, then who accepted it, when and why, in the scan report too; findingCount stays", async () => {
    const scanReport = async () => (await t.api.call("GET", `/api/games/${who.gameId}/releases/1.0.0/scan`, { token: who.admin })).body.report.findings
    const scanned = await scanReport()
    const flagged = scanned.find((f: { file: string }) => f.file === "res://main.gd")
    expect(flagged.docsUrl).toMatch(/^http:\/\/pckgate\.test\/docs\/rules\//)
    // One shape everywhere: `accepted` is there on every finding, null until someone accepts it.
    for (const f of scanned) expect(f.accepted).toBeNull()
    const before = await get(`${base()}/1.0.0/file?path=${encodeURIComponent("res://main.gd")}`)
    expect(before.body.findings).toEqual([expect.objectContaining({ fingerprint: flagged.fingerprint, docsUrl: flagged.docsUrl, accepted: null })])
    const reason = "The editor runs ls on purpose"
    const accepted = await t.api.call("POST", `/api/admin/games/${who.gameId}/findings/${flagged.fingerprint}/accept`, { token: who.admin, body: { reason } })
    expect(accepted.status).toBe(200)
    const after = await get(`${base()}/1.0.0/file?path=${encodeURIComponent("res://main.gd")}`)
    expect(after.body.findings).toEqual([expect.objectContaining({ fingerprint: flagged.fingerprint, docsUrl: flagged.docsUrl, accepted: acceptedBy(reason) })])
    expect(after.body.findings[0].accepted.at).toBe(accepted.body.accepted.at)
    const inScan = (await scanReport()).find((f: { fingerprint?: string }) => f.fingerprint === flagged.fingerprint)
    expect(inScan.accepted).toEqual(after.body.findings[0].accepted)
    // The listing still counts the accepted finding: accepted findings are shown, never hidden.
    const listed = (await get(`${base()}/1.0.0/files`)).body.files.find((f: { path: string }) => f.path === "res://main.gd")
    expect(listed.findingCount).toBe(1)

    expect((await t.api.approveScanned(who.admin, who.gameId, "1.0.0")).status).toBe(200)
    await shipPack(t, who.owner, who.gameId, "1.1.0", readingPack("1.1.0", MAIN_V2))
    const diff = await get(`${base()}/1.1.0/diff`)
    const carried = diff.body.findings.carried.find((f: { fingerprint?: string }) => f.fingerprint === flagged.fingerprint)
    expect(carried).toMatchObject({ docsUrl: flagged.docsUrl, accepted: acceptedBy(reason) })
    for (const f of [...diff.body.findings.new, ...diff.body.findings.carried, ...diff.body.findings.fixed]) {
      expect(f.docsUrl).toMatch(/^http:\/\/pckgate\.test\/docs\/rules\//)
      expect(f).toHaveProperty("accepted")
    }
  })
})

describe("only administrators read packs; everyone else gets the 404 rule", () => {
  test.each(["files", "file?path=res%3A%2F%2Fmain.gd", "diff"])("%s", async (endpoint) => {
    const url = `${base()}/1.0.0/${endpoint}`
    expect((await get(url)).status).toBe(200)
    for (const token of [who.owner, who.stranger]) {
      const reply = await get(url, token)
      expect([reply.status, reply.body.error]).toEqual([404, "not_found"])
      expect(typeof reply.body.detail).toBe("string")
    }
    const anonymous = await t.api.call("GET", url, {})
    expect([anonymous.status, anonymous.body.error]).toEqual([401, "sign_in_required"])
    const unknownVersion = await get(`${base()}/7.7.7/${endpoint}`)
    expect([unknownVersion.status, unknownVersion.body.error]).toEqual([404, "not_found"])
    const unknownGame = await get(`/api/admin/games/gm_nope/releases/1.0.0/${endpoint}`)
    expect([unknownGame.status, unknownGame.body.error]).toEqual([404, "game_not_found_or_forbidden"])
    const notAdminUnknownGame = await get(`/api/admin/games/gm_nope/releases/1.0.0/${endpoint}`, who.owner)
    expect([notAdminUnknownGame.status, notAdminUnknownGame.body.error]).toEqual([404, "not_found"])
  })
})

describe("the answers match GET /openapi.json", () => {
  test("200, 400 and 404 of …/files, …/file and …/diff conform to their documented schemas", async () => {
    const { Ajv2020 } = await import("ajv/dist/2020.js")
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    const doc = (await t.api.call("GET", "/openapi.json")).body
    const flagged = (await get(`${base()}/1.0.0/file?path=${encodeURIComponent("res://main.gd")}`)).body.findings[0]
    expect((await t.api.call("POST", `/api/admin/games/${who.gameId}/findings/${flagged.fingerprint}/accept`, { token: who.admin, body: { reason: "ok" } })).status).toBe(200)
    expect((await t.api.approveScanned(who.admin, who.gameId, "1.0.0")).status).toBe(200)
    await shipPack(t, who.owner, who.gameId, "1.1.0", readingPack("1.1.0", MAIN_V2))
    const template = "/api/admin/games/{gameId}/releases/{version}"
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["files", "1.0.0/files?limit=2"], ["files", "1.0.0/files?limit=0"], ["files", "9.9.9/files"],
      ["file", `1.0.0/file?path=${encodeURIComponent("res://main.gd")}`], ["file", `1.0.0/file?path=${encodeURIComponent("res://icon.png")}`],
      ["file", "1.0.0/file?path=x"], ["file", `1.0.0/file?path=${encodeURIComponent("res://none.gd")}`],
      ["diff", "1.0.0/diff"], ["diff", "1.0.0/diff?against=1.0.0"], ["diff", "1.0.0/diff?against=.."], ["diff", "1.1.0/diff"],
      ["files", "1.0.0/files?cursor=zzzz!"],
    ]
    for (const [endpoint, path] of cases) {
      const reply = await get(`${base()}/${path}`)
      const schema = doc.paths[`${template}/${endpoint}`].get.responses[String(reply.status)]?.content?.["application/json"]?.schema
      expect(schema, `${path} documents ${reply.status}`).toBeDefined()
      const validate = ajv.compile(schema)
      expect(validate(reply.body), `${path} ${reply.status}: ${ajv.errorsText(validate.errors)}`).toBe(true)
    }
  })
})

describe("limits", () => {
  test("texts over 1 MiB are cut with truncated: true; unified diffs over 256 KiB too", async () => {
    const line = (i: number, tag: string) => `line ${String(i).padStart(6, "0")} ${tag} ${"x".repeat(40)}\n`
    const big = (tag: string) => Array.from({ length: 24_000 }, (_, i) => line(i, tag)).join("")
    expect(big("a").length).toBeGreaterThan(1024 * 1024)
    await shipPack(t, who.owner, who.gameId, "2.0.0", readingPack("2.0.0", MAIN_V1, [{ path: "res://big.txt", data: utf8(big("a")) }]))
    await shipPack(t, who.owner, who.gameId, "2.1.0", readingPack("2.1.0", MAIN_V1, [{ path: "res://big.txt", data: utf8(big("b")) }]))
    const file = await get(`${base()}/2.0.0/file?path=${encodeURIComponent("res://big.txt")}`)
    expect(file.body).toMatchObject({ kind: "text", sizeBytes: big("a").length, truncated: true })
    expect(file.body.text).toHaveLength(1024 * 1024)
    expect(big("a").startsWith(file.body.text)).toBe(true)
    const diff = await get(`${base()}/2.1.0/diff?against=2.0.0`)
    const changed = diff.body.files.find((f: { path: string }) => f.path === "res://big.txt")
    expect(changed).toMatchObject({ change: "modified", kind: "text", truncated: true })
    expect(new TextEncoder().encode(changed.unified).length).toBeLessThanOrEqual(256 * 1024)
    expect(changed.unified.endsWith("\n")).toBe(true)
  })
})
