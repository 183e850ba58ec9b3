// One release under review: claim it, accept findings, approve (plainly, or despite unresolved errors with a reason),
// or reject with a required reason — all through the JSON API with the session cookie. The code view of a file has
// only the accept forms (each names its game); the release page has the decision too.
"use strict"
;(() => {
  const status = document.getElementById("review-status")
  if (status === null) return
  const decision = document.querySelector(".decision")
  const approve = document.getElementById("approve")
  const overrideForm = document.getElementById("override-form")
  const overrideReason = document.getElementById("override-reason")
  const claim = document.getElementById("claim")
  const rejectForm = document.getElementById("reject-form")
  const reason = document.getElementById("reason")
  const rejectButton = rejectForm && rejectForm.querySelector("button[type=submit]")
  // Approve stays disabled while the scan is pending: busy states never enable it.
  const approveAllowed = approve !== null && !approve.disabled

  const say = (text, kind, withQueueLink) => {
    status.replaceChildren(text)
    status.className = `status-message status-message-${kind}`
    if (withQueueLink) {
      const back = document.createElement("a")
      back.href = "/admin"
      back.textContent = "Back to the review queue"
      status.append(" ", back)
    }
    status.focus()
  }

  const controls = () => [
    approveAllowed ? approve : null,
    claim,
    rejectButton,
    reason,
    overrideReason,
    overrideForm && overrideForm.querySelector("button[type=submit]"),
    ...document.querySelectorAll(".accept-form input, .accept-form button"),
  ].filter((c) => c !== null)

  const setBusy = (busy) => {
    for (const control of controls()) control.disabled = busy
  }

  /** One call; returns the answer, or null after saying why it failed. */
  const call = async (method, path, body) => {
    try {
      const response = await fetch(path, {
        method,
        credentials: "same-origin",
        headers: body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const answer = await response.json().catch(() => null)
      if (!response.ok || answer === null) {
        say(`Not done: ${(answer && answer.detail) || `the service answered ${response.status}`}`, "failed", false)
        return null
      }
      return answer
    } catch {
      say("The service could not be reached; nothing was changed. Try again.", "failed", false)
      return null
    }
  }

  /** A required text field: refused on the page when blank, with the field marked and focused. */
  const required = (field, message) => {
    if (field.value.trim() !== "") {
      field.removeAttribute("aria-invalid")
      return true
    }
    field.setAttribute("aria-invalid", "true")
    say(message, "failed", false)
    field.focus()
    return false
  }

  // Accepting a finding changes what approval needs: the page is reloaded to show the gate as it now stands.
  for (const form of document.querySelectorAll(".accept-form")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault()
      const field = form.querySelector("input[name=reason]")
      if (!required(field, "Write why this finding is acceptable: the reason stays with it.")) return
      setBusy(true)
      const answer = await call("POST", `/api/admin/games/${encodeURIComponent(form.dataset.gameId)}/findings/${encodeURIComponent(form.dataset.fingerprint)}/accept`, { reason: field.value })
      if (answer === null) return setBusy(false)
      window.location.reload()
    })
  }

  if (decision === null) return
  const { gameId, version } = decision.dataset
  const base = `/api/admin/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}`

  const decide = async (action, body) => {
    setBusy(true)
    status.textContent = action === "approve" ? "Approving: re-verifying the stored package…" : "Rejecting…"
    const answer = await call("POST", `${base}/${action}`, body)
    if (answer === null) return setBusy(false)
    // Decided: the controls go away, the outcome stays on the page.
    for (const part of [approve, overrideForm, rejectForm, claim, ...document.querySelectorAll(".accept-form")]) {
      if (part !== null) part.hidden = true
    }
    const help = document.getElementById("approve-help")
    if (help !== null) help.hidden = true
    const catalog = document.getElementById("catalog-status")
    if (catalog !== null && answer.gameStatus) {
      catalog.textContent = `${answer.gameStatus}${answer.activeVersion ? ` (active version ${answer.activeVersion})` : ""}`
    }
    const pill = document.getElementById("release-status")
    if (pill !== null && answer.status) {
      pill.textContent = answer.status === "pending_review" ? "pending review" : answer.status
      pill.className = `status status-${answer.status}`
    }
    const active = answer.activeVersion ? ` Active version: ${answer.activeVersion}.` : ""
    say(
      action === "approve"
        ? `Approved ${version}${answer.approvalOverride ? " despite its errors (your reason is kept)" : ""}. The game is now ${answer.gameStatus}.${active}`
        : `Rejected ${version}; the creator sees the reason. The game is ${answer.gameStatus}.${active}`,
      "ok",
      true,
    )
  }

  if (approveAllowed) approve.addEventListener("click", () => decide("approve", undefined))
  if (overrideForm !== null) {
    overrideForm.addEventListener("submit", (event) => {
      event.preventDefault()
      if (!required(overrideReason, "Write why you approve despite the errors: the reason is kept with the decision.")) return
      decide("approve", { override: { reason: overrideReason.value } })
    })
  }
  rejectForm.addEventListener("submit", (event) => {
    event.preventDefault()
    if (!required(reason, "Write a reason before rejecting: the creator needs to know what to change.")) return
    decide("reject", { reason: reason.value })
  })

  claim.addEventListener("click", async () => {
    setBusy(true)
    const answer = await call("POST", `${base}/claim`)
    setBusy(false)
    if (answer === null) return
    const line = document.getElementById("claim-status")
    const until = new Date(answer.claimedUntil).toISOString().slice(0, 16).replace("T", " ")
    line.textContent = `Claimed by you until ${until} UTC.`
    claim.textContent = "Renew your claim (30 minutes)"
    say(`You hold this release until ${until} UTC; other administrators cannot decide it meanwhile.`, "ok", false)
  })
})()
