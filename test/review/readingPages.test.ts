// The reading pages over app.fetch (the browser routes on the memory-backed app): who may open them, hostile text in a
// pack stays inert, and the markup keeps the strict CSP (no inline style, no inline script).
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { utf8 } from "../scanner/support/bytes.ts"
import { makeTestApp, type TestApp } from "../support/testApp.ts"
import { MAIN_V1, pagesOf, readingGame, readingPack, shipPack } from "./support.ts"

const HOSTILE = `# <script>alert("x")</script></textarea><style>`
/** "Trojan Source": the override and isolates make the comparison read as a comment in an editor that obeys them. */
const TROJAN = `extends Node\n\nfunc is_admin(access_level):\n\treturn access_level != "user\u202E \u2066# Check if admin\u2069 \u2066"\n`
/** A path whose folder and file names hold bidirectional controls: shown as they act, it would read otherwise. */
const BIDI_PATH = "res://evil\u202Edir/run\u2066me.gd"
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/
const mark = (codePoint: string, name: string) => `<mark class="hidden-char" title="U+${codePoint} ${name}">U+${codePoint}</mark>`
const RLO = mark("202E", "RIGHT-TO-LEFT OVERRIDE")
const LRI = mark("2066", "LEFT-TO-RIGHT ISOLATE")

let t: TestApp
let who: Awaited<ReturnType<typeof readingGame>>
let signIn: Awaited<ReturnType<typeof pagesOf>>["signIn"]
let get: Awaited<ReturnType<typeof pagesOf>>["get"]

beforeAll(async () => {
  t = await makeTestApp()
  ;({ signIn, get } = await pagesOf(t))
  who = await readingGame(t)
  await shipPack(t, who.owner, who.gameId, "1.0.0", readingPack("1.0.0", `${MAIN_V1}${HOSTILE}\n`, [
    { path: `res://a<b>"c'.txt`, data: utf8(HOSTILE) },
    { path: "res://trojan.gd", data: utf8(TROJAN) },
    { path: BIDI_PATH, data: utf8(`extends Node\n\nfunc _ready():\n\tOS.execute("ls", [], true)\n`) },
  ]))
})
afterAll(() => t.dispose())

describe("the release page's reading sections and the code view", () => {
  test("an administrator sees the tree, the code with its flagged line, and hostile text stays inert", async () => {
    const admin = await signIn("root", true)
    const release = await get(`/admin/games/${who.gameId}/releases/1.0.0`, admin)
    expect(release.status).toBe(200)
    const markup = await release.text()
    expect(markup).toContain('<nav aria-label="Files in the pack">')
    expect(markup).toContain("a&lt;b&gt;&quot;c&#39;.txt")
    expect(markup).toContain(`href="/admin/games/${who.gameId}/releases/1.0.0/download"`)
    const code = await get(`/admin/games/${who.gameId}/releases/1.0.0/code?path=${encodeURIComponent("res://main.gd")}`, admin)
    expect(code.status).toBe(200)
    const view = await code.text()
    expect(view).toMatch(/<tr id="L5" class="code-line flagged" aria-describedby="F5">/)
    expect(view).toContain('<span class="tok-keyword">func</span>')
    expect(view).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;/textarea&gt;&lt;style&gt;")
    for (const markupOf of [markup, view]) {
      expect(markupOf).not.toMatch(/\sstyle="|<style|<script>|<script(?![^>]*\ssrc=)/)
    }
    const download = await get(`/admin/games/${who.gameId}/releases/1.0.0/download`, admin)
    expect(download.status).toBe(303)
    expect(download.headers.get("location")).toMatch(/^http:\/\/pckgate\.test\/storage\//)
  })

  test("hidden characters in the code show as labelled marks, never as characters that reorder the line", async () => {
    const admin = await signIn("root", true)
    const code = await get(`/admin/games/${who.gameId}/releases/1.0.0/code?path=${encodeURIComponent("res://trojan.gd")}`, admin)
    expect(code.status).toBe(200)
    const view = await code.text()
    expect(view).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/)
    expect(view).toContain('<mark class="hidden-char" title="U+202E RIGHT-TO-LEFT OVERRIDE">U+202E</mark>')
    expect(view).toContain('<mark class="hidden-char" title="U+2066 LEFT-TO-RIGHT ISOLATE">U+2066</mark>')
    expect(view.match(/class="hidden-char"/g)).toHaveLength(4)
  })

  test("hidden characters in a pack's paths show as marks wherever the pages print them: tree, changes, findings, the code page's title and heading", async () => {
    const admin = await signIn("root", true)
    const release = await (await get(`/admin/games/${who.gameId}/releases/1.0.0`, admin)).text()
    const code = await (await get(`/admin/games/${who.gameId}/releases/1.0.0/code?path=${encodeURIComponent(BIDI_PATH)}`, admin)).text()
    const creator = await (await get("/creator", await signIn("owner", false))).text()
    for (const [name, markup] of [["release page", release], ["code page", code], ["creator page", creator]] as const) {
      expect(BIDI_CONTROLS.exec(markup)?.index, `${name}: a raw bidirectional control`).toBeUndefined()
    }
    const shownPath = `res://evil${RLO}dir/run${LRI}me.gd`
    // The file tree: the folder and the file's label.
    expect(release).toContain(`<span class="folder">evil${RLO}dir/</span>`)
    expect(release).toContain(`>run${LRI}me.gd</a>`)
    // The changes' file summary (no active release: every file is new).
    expect(release).toContain(`<summary><code>${shownPath}</code> — added`)
    // The findings list: each finding's location, on the release page and the creator's.
    for (const markup of [release, creator]) expect(markup).toContain(`<p class="where"><code>${shownPath}:4</code>`)
    // The code page: its title as plain text, its heading and its finding at line 4.
    expect(code).toContain(`<title>res://evil&lt;U+202E&gt;dir/run&lt;U+2066&gt;me.gd in 1.0.0 · pckgate</title>`)
    expect(code).toContain(`<h2>${shownPath}</h2>`)
    expect(code).toMatch(/<tr id="L4" class="code-line flagged"/)
  })

  test("everyone else gets the 404 page; odd paths are a 404 page, never a 500", async () => {
    const member = await signIn("owner", false)
    for (const path of ["", "/code?path=res%3A%2F%2Fmain.gd", "/download"]) {
      expect((await get(`/admin/games/${who.gameId}/releases/1.0.0${path}`, member)).status, path).toBe(404)
      expect((await get(`/admin/games/${who.gameId}/releases/1.0.0${path}`)).status, path).toBe(303)
    }
    const admin = await signIn("root", true)
    for (const path of ["res://../x", "", "res://nope.gd", "%%%"]) {
      expect((await get(`/admin/games/${who.gameId}/releases/1.0.0/code?path=${path === "%%%" ? path : encodeURIComponent(path)}`, admin)).status, path).toBe(404)
    }
    expect((await get(`/admin/games/${who.gameId}/releases/1.0.0?against=..`, admin)).status).toBe(200)
  })

  test("the code view offers each unaccepted error finding's accept form, and shows 'Accepted by X: reason' once accepted", async () => {
    const admin = await signIn("root", true)
    const codePath = `/admin/games/${who.gameId}/releases/1.0.0/code?path=${encodeURIComponent("res://main.gd")}`
    const before = await (await get(codePath, admin)).text()
    const fingerprint = (await t.api.call("GET", `/api/games/${who.gameId}/releases/1.0.0/scan`, { token: who.admin })).body.report.findings
      .find((f: { file: string; line: number }) => f.file === "res://main.gd" && f.line === 5).fingerprint
    // The release page's form, under the flagged line, posting for this game; review.js (same origin) drives it.
    const form = new RegExp(`<td id="F5"><div class="line-finding"><p>.*?</p><form class="accept-form stack" data-game-id="${who.gameId}" data-fingerprint="${fingerprint}" novalidate>`, "s")
    expect(before).toMatch(form)
    expect(before).toMatch(/<label for="accept-reason-[\w-]+">Why this finding is acceptable/)
    expect(before).toMatch(/<script src="\/assets\/review\.js\?v=[0-9a-f]+"/)
    expect(before).not.toContain("Accepted by")

    const reason = `The editor lists files <b>on purpose</b>`
    const accepted = await t.api.call("POST", `/api/admin/games/${who.gameId}/findings/${fingerprint}/accept`, { token: who.admin, body: { reason } })
    expect(accepted.status).toBe(200)
    const after = await (await get(codePath, admin)).text()
    expect(after).toContain('<div class="line-finding finding-accepted">')
    expect(after).toContain("Accepted by admin: <q>The editor lists files &lt;b&gt;on purpose&lt;/b&gt;</q>")
    expect(after).not.toContain("accept-form")
    expect(after).not.toMatch(/\sstyle="|<style|<script>|<script(?![^>]*\ssrc=)/)
    expect((await t.api.call("DELETE", `/api/admin/games/${who.gameId}/findings/${fingerprint}/accept`, { token: who.admin })).status).toBe(204)
  })
})
