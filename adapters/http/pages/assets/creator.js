// My games: a download button asks the JSON API for a short-lived URL (session cookie), then follows it.
"use strict"
;(() => {
  const status = document.getElementById("download-status")
  const say = (text) => {
    status.textContent = text
    status.focus()
  }
  for (const button of document.querySelectorAll("button.download")) {
    button.addEventListener("click", async () => {
      const { gameId, version } = button.dataset
      button.disabled = true
      status.textContent = `Preparing the download of version ${version}…`
      try {
        const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}/download-url`, {
          headers: { accept: "application/json" },
          credentials: "same-origin",
        })
        const body = await response.json().catch(() => null)
        if (!response.ok || !body || typeof body.url !== "string") {
          say(`The download is not available: ${(body && body.detail) || `the service answered ${response.status}`}`)
          return
        }
        // The URL is valid for about 5 minutes; the SHA-256 lets the creator check the downloaded file.
        say(`Downloading version ${version}. Its SHA-256 is ${body.sha256}.`)
        window.location.assign(body.url)
      } catch {
        say("The service could not be reached; try again.")
      } finally {
        button.disabled = false
      }
    })
  }
})()
