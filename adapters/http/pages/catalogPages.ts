import { Effect } from "effect"
import type { Principal } from "../../../domain/auth/Principal.ts"
import { type CatalogItem, catalogPage, publishedGameBySlug, readCatalogRequest } from "../../../domain/catalog/CatalogPage.ts"
import { html } from "./html.ts"
import { formatBytes, htmlResponse, page, timestamp } from "./layout.ts"
import { pager } from "./pager.ts"

// {base_url}/games: the public catalog with the same paging and search as GET /api/catalog, a plain GET form for the
// search (no script); {base_url}/games/{slug}: one published game. Anyone may look; downloading needs sign-in (spec
// §4.5), so the game page sends visitors to sign in and signed-in players to their download.

const gamePath = (slug: string) => `/games/${encodeURIComponent(slug)}`

const gameCard = (game: CatalogItem) =>
  html`<li class="game-card">
  <h2><a href="${gamePath(game.slug)}">${game.name}</a></h2>
  <p>Version ${game.activeVersion}, ${formatBytes(game.sizeBytes)}, first published ${timestamp(game.firstPublishedAt)}</p>
</li>`

export interface CatalogPageParams {
  readonly limit: string | null
  readonly cursor: string | null
  readonly q: string | null
}

export const gamesPage = Effect.fnUntraced(function*(principal: Principal | null, params: CatalogPageParams) {
  const request = yield* readCatalogRequest(params)
  const { games, nextCursor } = yield* catalogPage(request)
  const q = params.q?.trim() ?? ""
  const base = q === "" ? "/games" : `/games?q=${encodeURIComponent(q)}`
  const onFirstPage = params.cursor === null
  const summary = q === ""
    ? (games.length === 0 && onFirstPage ? "No game is published yet." : "Published games, newest first.")
    : (games.length === 0 ? `No published game's name or slug starts with “${q}”.` : `Games whose name or slug starts with “${q}”, newest first.`)
  return htmlResponse(200, page({
    title: "Games",
    principal,
    section: "games",
    main: html`<form class="search" method="get" action="/games" role="search">
  <label for="q">Search by the start of a name or slug</label>
  <input id="q" name="q" type="search" maxlength="80" value="${q}" autocomplete="off">
  <button type="submit">Search</button>
</form>
<p role="status">${summary}</p>
${games.length > 0 && html`<ul class="game-list">${games.map(gameCard)}</ul>`}
${pager(base, nextCursor, onFirstPage, "Catalog pages")}`,
  }))
})

export const gamePage = Effect.fnUntraced(function*(principal: Principal | null, slug: string) {
  const game = yield* publishedGameBySlug(slug)
  return htmlResponse(200, page({
    title: game.name,
    principal,
    section: "games",
    main: html`<p><a href="/games">All games</a></p>
<dl class="facts">
  <dt>Active version</dt><dd id="active-version">${game.activeVersion}</dd>
  <dt>Size</dt><dd>${formatBytes(game.sizeBytes)} (${game.sizeBytes} bytes)</dd>
  <dt>SHA-256</dt><dd><code class="digest">${game.sha256}</code></dd>
  <dt>Published</dt><dd>${timestamp(game.firstPublishedAt)}</dd>
  <dt>Slug</dt><dd><code>${game.slug}</code></dd>
</dl>
<p>${
      principal === null
        ? html`<a href="/auth/login?return_to=${encodeURIComponent(gamePath(game.slug))}">Sign in</a> to download this game.`
        : html`Signed-in players download it with <code>pckgate download ${game.gameId}</code> or through the API.`
    }</p>`,
  }))
})
