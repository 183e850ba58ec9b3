// API keys on the creator page: create one (shown once) and revoke them, through the JSON API with the session cookie.
"use strict"
;(() => {
  const form = document.getElementById("new-api-key")
  const status = document.getElementById("api-key-status")
  if (form === null || status === null) return
  const say = (text) => {
    status.textContent = text
    status.focus()
  }
  const call = async (method, path, body) => {
    const response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    let parsed = null
    try {
      parsed = text === "" ? null : JSON.parse(text)
    } catch {}
    return { status: response.status, body: parsed }
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault()
    const data = new FormData(form)
    const games = data.get("games")
    const body = {
      name: String(data.get("name") ?? ""),
      scopes: data.getAll("scope").map(String),
      games: games === "all" ? "all" : [String(games)],
      expiresInDays: Number(data.get("days")),
    }
    try {
      const answer = await call("POST", "/api/me/api-keys", body)
      if (answer.status !== 201 || answer.body === null) {
        say(`The key was not created: ${(answer.body && answer.body.detail) || `the service answered ${answer.status}`}`)
        return
      }
      document.getElementById("new-key").textContent = answer.body.key
      document.getElementById("new-key-box").hidden = false
      say(`Created the key ${answer.body.name}. Copy it now: reload the page to see it in the list.`)
    } catch {
      say("The service could not be reached; try again.")
    }
  })
  for (const button of document.querySelectorAll("button.revoke-key")) {
    button.addEventListener("click", async () => {
      button.disabled = true
      try {
        const answer = await call("DELETE", `/api/me/api-keys/${encodeURIComponent(button.dataset.keyId)}`)
        if (answer.status !== 204) {
          say(`The key was not revoked: ${(answer.body && answer.body.detail) || `the service answered ${answer.status}`}`)
          button.disabled = false
          return
        }
        button.closest("tr").remove()
        say("The key is revoked: it stops working at once.")
      } catch {
        say("The service could not be reached; try again.")
        button.disabled = false
      }
    })
  }
})()
