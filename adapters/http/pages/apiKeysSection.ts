import type { ApiKey } from "../../../domain/credentials/ApiKey.ts"
import { API_KEY_DEFAULT_DAYS, API_KEY_MAX_DAYS } from "../../../domain/credentials/ApiKey.ts"
import { type Html, html } from "./html.ts"
import { timestamp } from "./layout.ts"

// The creator page's API keys: the list (revoke buttons) and a form that creates one; assets/apiKeys.js sends both
// to the JSON API with the session cookie and shows a new key once.

const gamesText = (key: ApiKey, names: ReadonlyMap<string, string>): string =>
  key.games === "all" ? "all your games" : key.games.map((id) => names.get(id) ?? id).join(", ")

const keyRow = (key: ApiKey, names: ReadonlyMap<string, string>): Html =>
  html`<tr data-key-id="${key.id}">
  <th scope="row">${key.name}</th>
  <td><code>${key.prefix}…</code></td>
  <td>${key.scopes.join(", ")}</td>
  <td>${gamesText(key, names)}</td>
  <td>${key.expiresAt === null ? "never" : timestamp(key.expiresAt)}</td>
  <td>${key.lastUsedAt === null ? html`<span class="muted">never</span>` : timestamp(key.lastUsedAt)}</td>
  <td><button type="button" class="revoke-key" data-key-id="${key.id}" aria-label="Revoke the key ${key.name}">Revoke</button></td>
</tr>`

export const apiKeysSection = (keys: ReadonlyArray<ApiKey>, games: ReadonlyArray<{ gameId: string; name: string }>): Html => {
  const names = new Map(games.map((game) => [game.gameId, game.name]))
  return html`<section class="api-keys" aria-labelledby="api-keys-heading">
  <h2 id="api-keys-heading">API keys</h2>
  <p>Keys let scripts and CI call the API without your sign-in, limited to some games and scopes: <b>read</b> (your
  games, releases and downloads), <b>release</b> (read, upload and finalize; with all games also create games),
  <b>submit</b> (read and the multipart endpoint). A key never reaches administration, sessions or other keys. In CI,
  prefer trusted publishing: it needs no stored secret.</p>
  ${
    keys.length === 0
      ? html`<p id="no-keys">You have no API keys.</p>`
      : html`<table id="api-key-list">
  <caption>Your API keys</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Starts with</th><th scope="col">Scopes</th><th scope="col">Games</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">Revoke</th></tr></thead>
  <tbody>${keys.map((key) => keyRow(key, names))}</tbody>
  </table>`
  }
  <form id="new-api-key">
  <fieldset><legend>New API key</legend>
  <p><label for="key-name">Key name</label> <input id="key-name" name="name" required maxlength="80"></p>
  <fieldset><legend>Scopes</legend>
  <label><input type="checkbox" name="scope" value="read"> read</label>
  <label><input type="checkbox" name="scope" value="release" checked> release</label>
  <label><input type="checkbox" name="scope" value="submit"> submit</label>
  </fieldset>
  <fieldset><legend>Games</legend>
  <label><input type="radio" name="games" value="all" checked> All my games (also new ones)</label>
  ${games.map((game) => html`<label><input type="radio" name="games" value="${game.gameId}"> Only ${game.name}</label>`)}
  </fieldset>
  <p><label for="key-days">Valid for (days)</label> <input id="key-days" name="days" type="number" min="1" max="${String(API_KEY_MAX_DAYS)}" value="${String(API_KEY_DEFAULT_DAYS)}"></p>
  <button type="submit">Create the key</button>
  </fieldset>
  </form>
  <div id="api-key-status" class="status-message" role="status" aria-live="polite" tabindex="-1"></div>
  <p id="new-key-box" hidden>Copy this key now; it is not shown again: <code id="new-key"></code></p>
</section>`
}
