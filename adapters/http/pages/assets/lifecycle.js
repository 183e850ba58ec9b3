// Activate / roll back (creators and administrators) and take down / reinstate (administrators), through the JSON API
// with the session cookie; the page reloads to show the new state.
"use strict"
;(() => {
  const post = async (path, body) => {
    const response = await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify(body),
    })
    const answer = await response.json().catch(() => null)
    return { ok: response.ok, answer, status: response.status }
  }
  const statusBox = document.getElementById("lifecycle-status") || document.getElementById("takedown-status")
  const say = (text) => {
    if (statusBox === null) return
    statusBox.textContent = text
    statusBox.focus()
  }
  for (const button of document.querySelectorAll("button.activate")) {
    button.addEventListener("click", async () => {
      const { gameId, version } = button.dataset
      button.disabled = true
      say(`Activating ${version}: re-verifying the stored package…`)
      try {
        const { ok, answer, status } = await post(`/api/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}/activate`, {})
        if (!ok) {
          say(`Not done: ${(answer && answer.detail) || `the service answered ${status}`}`)
          button.disabled = false
          return
        }
        say(`Version ${answer.activeVersion} is now active.`)
        window.location.reload()
      } catch {
        say("The service could not be reached; nothing changed. Try again.")
        button.disabled = false
      }
    })
  }
  const form = document.getElementById("takedown-form")
  if (form !== null) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault()
      const { gameId, version, action } = form.dataset
      const reason = document.getElementById("takedown-reason")
      if (reason.value.trim() === "") {
        say("Write a reason first: the creator and the timeline show it.")
        reason.focus()
        return
      }
      const submitButton = form.querySelector("button[type=submit]")
      submitButton.disabled = true
      try {
        const { ok, answer, status } = await post(
          `/api/admin/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}/${action}`,
          { reason: reason.value },
        )
        if (!ok) {
          say(`Not done: ${(answer && answer.detail) || `the service answered ${status}`}`)
          submitButton.disabled = false
          return
        }
        say(`${action === "takedown" ? "Taken down" : "Reinstated"}. Active version: ${answer.activeVersion || "none"}.`)
        window.location.reload()
      } catch {
        say("The service could not be reached; nothing changed. Try again.")
        submitButton.disabled = false
      }
    })
  }
})()
