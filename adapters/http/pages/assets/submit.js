// The submit page: upload token (cookie, same origin) → multipart POST with progress → result or findings.
// Everything from the server or the pack is written with textContent, never as markup.
"use strict"
;(() => {
  const form = document.getElementById("submit-form")
  if (form === null) return
  const pckInput = document.getElementById("pck")
  const manifestInput = document.getElementById("manifest")
  const button = document.getElementById("submit-button")
  const progressBox = document.getElementById("upload-progress")
  const progressBar = document.getElementById("progress-bar")
  const progressLabel = document.getElementById("progress-label")
  const progressText = document.getElementById("progress-text")
  const result = document.getElementById("result")
  const submitUrl = form.dataset.submitUrl
  const limitBytes = Number(form.dataset.limitBytes)
  const ruleHelp = JSON.parse(form.dataset.ruleHelp || "{}")

  const el = (tag, text, className) => {
    const node = document.createElement(tag)
    if (text !== undefined && text !== null) node.textContent = String(text)
    if (className) node.className = className
    return node
  }

  // The same wording as formatBytes in ../layout.ts, which renders sizes on the server side of these pages.
  const formatBytes = (bytes) => {
    const units = ["bytes", "KiB", "MiB", "GiB"]
    let value = bytes
    let unit = 0
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024
      unit++
    }
    return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`
  }

  /** Replaces the result region and moves focus to its heading, so keyboard and screen reader users land on it. */
  const showResult = (kind, title, ...children) => {
    result.replaceChildren()
    result.className = `result result-${kind}`
    const heading = el("h2", title)
    heading.id = "result-heading"
    heading.tabIndex = -1
    result.append(heading, ...children)
    heading.focus()
  }

  const findingItem = (finding) => {
    const item = el("li", null, "finding")
    const where = el("p", null, "where")
    const location = finding.line === null || finding.line === undefined ? finding.file : `${finding.file}:${finding.line}`
    const severity = finding.severity === "warning" ? "warning" : "error"
    where.append(el("code", location), " ", el("span", severity === "error" ? "Error" : "Warning", `severity severity-${severity}`), " ", el("span", finding.rule, "rule"))
    item.append(where)
    if (finding.embeddedIn) {
      const embedded = el("p", `In the built-in script ${finding.embeddedIn.subResource} of `, "embedded")
      embedded.append(el("code", finding.embeddedIn.resource), ".")
      item.append(embedded)
    }
    item.append(el("p", finding.message, "message"))
    item.append(el("p", Object.hasOwn(ruleHelp, finding.rule) ? ruleHelp[finding.rule] : "See the scanner documentation for this rule.", "explanation"))
    const pattern = el("p", "Blocked pattern: ", "pattern")
    pattern.append(el("code", finding.pattern))
    item.append(pattern)
    return item
  }

  const findingsList = (findings) => {
    const list = el("ol", null, "findings")
    for (const finding of findings) list.append(findingItem(finding))
    return list
  }

  const facts = (pairs) => {
    const dl = el("dl", null, "facts")
    for (const [term, value] of pairs) {
      const dd = el("dd")
      dd.append(value)
      dl.append(el("dt", term), dd)
    }
    return dl
  }

  const link = (href, text) => {
    const a = el("a", text)
    a.href = href
    return a
  }

  const render = (status, body) => {
    if (status === 200 && body && body.ok === true) {
      const scan = body.scan || {}
      const findings = Array.isArray(scan.findings) ? scan.findings : []
      const children = [
        el("p", "Your game is waiting for review. Nothing is published until an administrator approves it."),
        facts([
          ["Submission id", el("code", body.submissionId)],
          ["Status", el("span", body.status, "status status-review")],
          ["Game id", el("code", body.gameId)],
          ["Scan", findings.length === 0 ? "No problems found" : `${findings.length} warning(s), see below`],
        ]),
      ]
      if (findings.length > 0) children.push(findingsList(findings))
      const next = el("p")
      next.append(link("/creator", "Follow it in My games"))
      children.push(next)
      showResult("ok", "Submitted for review", ...children)
      return
    }
    if (status === 422 && body && Array.isArray(body.violations)) {
      showResult(
        "failed",
        body.error || "Static analysis failed",
        el("p", `The scanner found ${body.violations.length} problem(s). Fix them in the project, export again and resubmit; nothing was stored.`),
        findingsList(body.violations),
      )
      return
    }
    const error = body && typeof body === "object" ? body : {}
    const children = [el("p", error.detail || `The service answered ${status}.`)]
    if (status === 401) {
      const again = el("p")
      again.append(link(`/auth/login?return_to=${encodeURIComponent("/submit")}`, "Sign in again"))
      children.push(again)
    }
    showResult("failed", error.error ? `Submission failed: ${error.error}` : "Submission failed", ...children)
  }

  const setBusy = (busy) => {
    button.disabled = busy
    pckInput.disabled = busy
    manifestInput.disabled = busy
  }

  const invalid = (input, message) => {
    input.setAttribute("aria-invalid", "true")
    showResult("failed", "Check the form", el("p", message))
    input.focus()
  }

  const uploadToken = async () => {
    const response = await fetch("/api/session/upload-token", { method: "POST", headers: { accept: "application/json" }, credentials: "same-origin" })
    const body = await response.json().catch(() => null)
    if (!response.ok || !body || typeof body.token !== "string") return { status: response.status, body }
    return { token: body.token }
  }

  const upload = (token, data) =>
    new Promise((resolve) => {
      const xhr = new XMLHttpRequest()
      xhr.open("POST", submitUrl)
      xhr.setRequestHeader("authorization", `Bearer ${token}`)
      xhr.setRequestHeader("accept", "application/json")
      xhr.responseType = "text"
      xhr.upload.addEventListener("progress", (event) => {
        if (!event.lengthComputable) return
        const percent = Math.floor((event.loaded / event.total) * 100)
        progressBar.value = percent
        progressText.textContent = `${percent}% · ${formatBytes(event.loaded)} of ${formatBytes(event.total)}`
      })
      xhr.upload.addEventListener("load", () => {
        progressBar.value = 100
        progressLabel.textContent = "Uploaded; the scanner is checking the package…"
      })
      xhr.addEventListener("load", () => {
        let body = null
        try {
          body = JSON.parse(xhr.responseText)
        } catch {
          body = null
        }
        resolve({ status: xhr.status, body })
      })
      xhr.addEventListener("error", () => resolve({ status: 0, body: null }))
      xhr.addEventListener("abort", () => resolve({ status: 0, body: null }))
      xhr.send(data)
    })

  form.addEventListener("submit", async (event) => {
    event.preventDefault()
    pckInput.removeAttribute("aria-invalid")
    manifestInput.removeAttribute("aria-invalid")
    const pck = pckInput.files && pckInput.files[0]
    const manifest = manifestInput.files && manifestInput.files[0]
    if (!pck) return invalid(pckInput, "Choose the .pck file to submit.")
    if (!/\.pck$/i.test(pck.name)) return invalid(pckInput, "The package must be a .pck file.")
    if (pck.size > limitBytes) return invalid(pckInput, `The package is ${formatBytes(pck.size)}, above the 2 GiB limit; larger packages need onboarding with the operator.`)
    if (!manifest) return invalid(manifestInput, "Choose the manifest.json that is inside the package.")

    setBusy(true)
    result.replaceChildren()
    progressBar.value = 0
    progressLabel.textContent = "Preparing the upload…"
    progressText.textContent = ""
    progressBox.hidden = false
    try {
      const granted = await uploadToken()
      if (!granted.token) return render(granted.status, granted.body)
      const data = new FormData()
      data.append("pck", pck, pck.name)
      // Always a JSON file part, whatever type the browser guessed for the chosen file.
      data.append("manifest", new Blob([manifest], { type: "application/json" }), "manifest.json")
      progressLabel.textContent = `Uploading ${pck.name}…`
      const answer = await upload(granted.token, data)
      if (answer.status === 0) {
        showResult("failed", "Upload interrupted", el("p", "The connection was lost before the service answered. Check your connection and submit again."))
        return
      }
      render(answer.status, answer.body)
      // A stored submission is done: clear the choice so the same files are not sent twice by accident.
      if (answer.status === 200) form.reset()
    } catch {
      showResult("failed", "Upload interrupted", el("p", "The service could not be reached. Check your connection and submit again."))
    } finally {
      progressBox.hidden = true
      setBusy(false)
    }
  })
})()
