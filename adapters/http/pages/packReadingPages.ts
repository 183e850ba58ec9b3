// The reviewer's reading of a pack (issue 15), server-rendered: the capabilities added since the active release, the
// file tree, each file's code view with its findings at their lines, the diff against the active (or a chosen)
// release, and the pack's download. Administrators only, like the rest of /admin.
import { Effect } from "effect"
import type { Principal } from "../../../domain/auth/Principal.ts"
import { decodeInput } from "../../../domain/decode.ts"
import { downloadUrl } from "../../../domain/release/DownloadUrl.ts"
import { isValidVersion } from "../../../domain/release/Version.ts"
import { diffRelease, type ReleaseDiff } from "../../../domain/review/DiffReleases.ts"
import type { PackFileEntry } from "../../../domain/review/PackFile.ts"
import { existingRelease, listReleaseFiles, readReleaseFile } from "../../../domain/review/ReadPack.ts"
import { DiffQuery, type FileQuery, FilesQuery } from "../../../domain/review/ReadingQueries.ts"
import { codeView, unifiedView } from "./codeView.ts"
import { findingsList, type ShownFinding } from "./findings.ts"
import { acceptAction } from "./reviewGateSections.ts"
import { type Html, html } from "./html.ts"
import { formatBytes, htmlResponse, page, redirect } from "./layout.ts"
import { markedText, visibleText } from "./visibleText.ts"

export const releasePagePath = (gameId: string, version: string) =>
  `/admin/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}`
const codePath = (gameId: string, version: string, path: string) => `${releasePagePath(gameId, version)}/code?path=${encodeURIComponent(path)}`

/** Every entry, following the listing's cursor to the end. */
const allFiles = Effect.fnUntraced(function*(principal: Principal, gameId: string, version: string) {
  const files: Array<PackFileEntry & { findingCount: number }> = []
  let cursor: string | null = null
  do {
    const query = yield* decodeInput(FilesQuery, cursor === null ? {} : { cursor })
    const listing: Effect.Success<ReturnType<typeof listReleaseFiles>> = yield* listReleaseFiles(principal, gameId, version, query)
    files.push(...listing.files)
    cursor = listing.nextCursor
  } while (cursor !== null)
  return files
})

interface Folder {
  readonly folders: Map<string, Folder>
  readonly files: Array<PackFileEntry & { findingCount: number }>
}

/** Folders by the path's segments; a built-in script sits under its scene. */
const folderTree = (files: ReadonlyArray<PackFileEntry & { findingCount: number }>): Folder => {
  const root: Folder = { folders: new Map(), files: [] }
  for (const file of files) {
    if (file.embeddedIn !== undefined) continue
    const parts = file.path.slice("res://".length).split("/")
    let folder = root
    for (const part of parts.slice(0, -1)) {
      const next = folder.folders.get(part) ?? { folders: new Map(), files: [] }
      folder.folders.set(part, next)
      folder = next
    }
    folder.files.push(file)
  }
  return root
}

const treeView = (gameId: string, version: string, files: ReadonlyArray<PackFileEntry & { findingCount: number }>): Html => {
  const builtIns = new Map<string, Array<PackFileEntry & { findingCount: number }>>()
  for (const f of files) if (f.embeddedIn !== undefined) builtIns.set(f.embeddedIn, [...(builtIns.get(f.embeddedIn) ?? []), f])
  const fileItem = (f: PackFileEntry & { findingCount: number }, label: string): Html =>
    html`<li><a href="${codePath(gameId, version, f.path)}">${visibleText(label)}</a> <span class="muted">${f.kind}, ${formatBytes(f.sizeBytes)}</span>${
      f.findingCount > 0 && html` <span class="count">${f.findingCount} ${f.findingCount === 1 ? "finding" : "findings"}</span>`
    }${f.storedPath !== undefined && html` <span class="muted">(stored as <code>${visibleText(f.storedPath)}</code>)</span>`}${
      (builtIns.get(f.path) ?? []).length > 0 &&
      html`<ul>${(builtIns.get(f.path) ?? []).map((b) => fileItem(b, `built-in script ${b.path.slice(f.path.length + 2)}`))}</ul>`
    }</li>`
  const folderItems = (folder: Folder): Html =>
    html`${[...folder.folders].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, sub]) =>
      html`<li><span class="folder">${visibleText(name)}/</span><ul>${folderItems(sub)}</ul></li>`
    )}${folder.files.map((f) => fileItem(f, f.path.slice(f.path.lastIndexOf("/") + 1)))}`
  return html`<ul class="tree">${folderItems(folderTree(files))}</ul>`
}

/** The capabilities the release adds against the one it is compared with, for the top of the page. */
export const capabilitiesAddedSection = (diff: ReleaseDiff): Html =>
  html`<section aria-labelledby="capabilities-heading">
  <h2 id="capabilities-heading">Capabilities added${diff.against === null ? "" : ` since ${diff.against}`}</h2>
  ${
    diff.capabilities.added.length === 0
      ? html`<p>None${diff.against === null ? " (the scan lists no capabilities)" : ""}.</p>`
      : html`<p class="capabilities-added">${diff.against === null ? "This first release uses" : "This version newly uses"}: ${
        diff.capabilities.added.map((c, i) => html`${i > 0 ? ", " : ""}<strong>${c}</strong>`)
      }.</p>`
  }
  ${diff.capabilities.removed.length > 0 && html`<p>No longer used: ${diff.capabilities.removed.join(", ")}.</p>`}
</section>`

export const filesSection = (gameId: string, version: string, files: ReadonlyArray<PackFileEntry & { findingCount: number }>): Html =>
  html`<section aria-labelledby="files-heading">
  <h2 id="files-heading">Files in the pack</h2>
  <p><a class="button-link" href="${releasePagePath(gameId, version)}/download" download>Download the pack (${version})</a></p>
  ${
    files.length === 0
      ? html`<p>No files could be read from this pack (see the scan findings).</p>`
      : html`<p>${files.length} ${files.length === 1 ? "entry" : "entries"}; open one to read it with its findings.</p>
  <nav aria-label="Files in the pack">${treeView(gameId, version, files)}</nav>`
  }
</section>`

export const diffSection = (gameId: string, version: string, diff: ReleaseDiff, versions: ReadonlyArray<string>): Html =>
  html`<section aria-labelledby="diff-heading">
  <h2 id="diff-heading">Changes ${diff.against === null ? "(no active release: every file is new)" : `since ${diff.against}`}</h2>
  ${
    versions.some((v) => v !== version) &&
    html`<form method="get" action="${releasePagePath(gameId, version)}" class="inline-form">
    <label for="against">Compare with</label>
    <select id="against" name="against">${versions.filter((v) => v !== version).map((v) => html`<option value="${v}"${v === diff.against ? html` selected` : ""}>${v}</option>`)}</select>
    <button type="submit">Show changes</button>
  </form>`
  }
  <p>${diff.files.length} changed ${diff.files.length === 1 ? "file" : "files"}; findings: ${diff.findings.new.length} new, ${diff.findings.carried.length} carried over, ${diff.findings.fixed.length} fixed.</p>
  ${diff.files.map((f) =>
    html`<details class="diff-file-block" open>
  <summary><code>${visibleText(f.path)}</code> — ${f.change}${f.truncated === true ? " (diff cut at 256 KiB)" : ""}</summary>
  ${f.unified !== undefined ? unifiedView(f.unified) : html`<p class="muted">${f.kind} file: no text to compare.</p>`}
</details>`
  )}
</section>`

const AGAINST_ACTIVE = DiffQuery.make({})

/** The three sections the release page shows; `against` from its query string (anything but a version: the active release). */
export const packReadingSections = Effect.fnUntraced(function*(principal: Principal, gameId: string, version: string, against: string | null) {
  const files = yield* allFiles(principal, gameId, version)
  const chosen = against !== null && isValidVersion(against) ? DiffQuery.make({ against }) : AGAINST_ACTIVE
  const diff = yield* diffRelease(principal, gameId, version, chosen).pipe(
    Effect.catchTag("NotFound", () => diffRelease(principal, gameId, version, AGAINST_ACTIVE)),
  )
  return { files, diff }
})

/**
 * GET /admin/games/{gameId}/releases/{version}/code?path=…: one file, highlighted, each finding at its line with who
 * accepted it, and (pending releases) the accept action of the release page's findings (assets/review.js posts it).
 */
export const codePage = Effect.fnUntraced(function*(principal: Principal, gameId: string, version: string, query: FileQuery) {
  const file = yield* readReleaseFile(principal, gameId, version, query)
  const pending = (yield* existingRelease(gameId, version)).status === "pending_review"
  const action = (finding: ShownFinding, key: string) => acceptAction(gameId, finding, key, pending)
  const unplaced = file.findings.filter((f) => f.line === null)
  const body = file.text === null
    ? html`<p>A ${file.kind} file of ${formatBytes(file.sizeBytes)}: no text to show. First bytes: <code>${file.head ?? ""}</code></p>`
    : yield* Effect.promise(() => codeView(file.text ?? "", file.kind, file.findings, action))
  return htmlResponse(200, page({
    title: `${markedText(file.path)} in ${version}`,
    principal,
    section: "admin",
    scripts: ["review.js"],
    main: html`<p><a href="${releasePagePath(gameId, version)}">Back to the release ${version}</a></p>
<h2>${visibleText(file.path)}</h2>
<p>${file.kind}, ${formatBytes(file.sizeBytes)}${file.truncated && html` — showing the first MiB only`}. ${
      file.findings.length === 0 ? "No findings in this file." : `${file.findings.length} ${file.findings.length === 1 ? "finding" : "findings"}, shown at their lines.`
    }</p>
<p id="review-status" class="status-message" role="status" aria-live="polite" tabindex="-1"></p>
${unplaced.length > 0 && html`<h3>Findings about the whole file</h3>${findingsList(unplaced, (f, index) => action(f, `file-${index}`))}`}
${body}`,
  }))
})

/** GET /admin/games/{gameId}/releases/{version}/download: the pack, through a short-lived presigned URL (administrators). */
export const downloadRedirect = Effect.fnUntraced(function*(principal: Principal, gameId: string, version: string) {
  const { url } = yield* downloadUrl(principal, gameId, version)
  return redirect(url, {}, 303)
})
