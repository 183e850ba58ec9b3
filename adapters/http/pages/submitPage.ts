import type { Principal } from "../../../domain/auth/Principal.ts"
import { html } from "./html.ts"
import { htmlResponse, page, pageSecurityHeaders } from "./layout.ts"
import { RULE_HELP } from "./ruleHelp.ts"

// {base_url}/submit: a .pck and its manifest.json go to the multipart endpoint (spec §4.6) from the browser.
// The endpoint is Bearer-only, so assets/submit.js first asks POST /api/session/upload-token (cookie, same origin)
// for a 5-minute token, then uploads with XMLHttpRequest to show progress, then shows the result or the findings.

/** At most 2 GiB (spec §8, multipart path); the endpoint enforces it, the page only warns early. */
export const MULTIPART_LIMIT_BYTES = 2_147_483_648

export const submitPage = (principal: Principal, submitUrl: string, connectOrigins: ReadonlyArray<string>) =>
  htmlResponse(
    200,
    page({
      title: "Submit a game",
      principal,
      section: "submit",
      scripts: ["submit.js"],
      main: html`<p>Choose the package Godot exported with the “Summer Game PCK” preset and the same <code>manifest.json</code> that is
inside it. Every submission is reviewed by a person before it is published; new versions keep the manifest's <code>id</code>
and raise its <code>version</code>.</p>
<noscript><p class="error">This page needs JavaScript to upload. Without it, use the command line: <code>npm run -s cli -- release</code>.</p></noscript>
<form id="submit-form" class="stack" data-submit-url="${submitUrl}" data-limit-bytes="${MULTIPART_LIMIT_BYTES}" data-rule-help="${JSON.stringify(RULE_HELP)}">
  <div class="field">
    <label for="pck">Game package (.pck)</label>
    <input type="file" id="pck" name="pck" accept=".pck" required aria-describedby="pck-help">
    <p class="help" id="pck-help">At most 2 GiB. Larger packages need onboarding with the operator.</p>
  </div>
  <div class="field">
    <label for="manifest">Manifest (manifest.json)</label>
    <input type="file" id="manifest" name="manifest" accept=".json,application/json" required aria-describedby="manifest-help">
    <p class="help" id="manifest-help">Required fields: id, name, version, engine_sdk, entry_scene, min_players, max_players.</p>
  </div>
  <button type="submit" id="submit-button">Submit for review</button>
</form>
<div id="upload-progress" class="progress" hidden>
  <p id="progress-label">Uploading…</p>
  <progress id="progress-bar" max="100" value="0" aria-labelledby="progress-label" aria-describedby="progress-text"></progress>
  <p id="progress-text" class="help"></p>
</div>
<section id="result" class="result" aria-live="polite"></section>`,
    }),
    pageSecurityHeaders(connectOrigins),
  )
