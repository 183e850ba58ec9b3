// One release under review: approve, or reject with a required reason, through the JSON API with the session cookie.
"use strict"
;(() => {
  const decision = document.querySelector(".decision")
  if (decision === null) return
  const { gameId, version } = decision.dataset
  const status = document.getElementById("review-status")
  const approve = document.getElementById("approve")
  const rejectForm = document.getElementById("reject-form")
  const reason = document.getElementById("reason")
  const rejectButton = rejectForm.querySelector("button[type=submit]")
  const base = `/api/admin/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}`

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

  const setBusy = (busy) => {
    approve.disabled = busy
    rejectButton.disabled = busy
    reason.disabled = busy
  }

  const decide = async (action, body) => {
    setBusy(true)
    status.textContent = action === "approve" ? "Approving: re-verifying the stored package…" : "Rejecting…"
    try {
      const response = await fetch(`${base}/${action}`, {
        method: "POST",
        credentials: "same-origin",
        headers: body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const answer = await response.json().catch(() => null)
      if (!response.ok || answer === null) {
        say(`Not done: ${(answer && answer.detail) || `the service answered ${response.status}`}`, "failed", false)
        setBusy(false)
        return
      }
      // Decided: the controls go away, the outcome stays on the page.
      approve.hidden = true
      rejectForm.hidden = true
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
          ? `Approved ${version}. The game is now ${answer.gameStatus}.${active}`
          : `Rejected ${version}; the creator sees the reason. The game is ${answer.gameStatus}.${active}`,
        "ok",
        true,
      )
    } catch {
      say("The service could not be reached; nothing was decided. Try again.", "failed", false)
      setBusy(false)
    }
  }

  approve.addEventListener("click", () => decide("approve", undefined))
  rejectForm.addEventListener("submit", (event) => {
    event.preventDefault()
    if (reason.value.trim() === "") {
      reason.setAttribute("aria-invalid", "true")
      say("Write a reason before rejecting: the creator needs to know what to change.", "failed", false)
      reason.focus()
      return
    }
    reason.removeAttribute("aria-invalid")
    decide("reject", { reason: reason.value })
  })
})()
