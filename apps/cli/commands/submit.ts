// `submit <file.pck> --manifest manifest.json`: the multipart path (spec §4.6) — one request, scanned before anything is
// recorded. Findings print as `file:line rule message`. Exit codes as in exitCodes.ts: 0 in review, 1 findings.
import { readFile, stat } from "node:fs/promises"
import { basename } from "node:path"
import { SubmissionOk, SubmissionRefused } from "../../../adapters/http/openapi/schemas.ts"
import { MULTIPART_MAX_BYTES, RELEASE_MIN_BYTES } from "../../../domain/release/Limits.ts"
import { SERVICE_OPTIONS, usageError } from "../args.ts"
import { clientOptions, decodeReply, failureFrom, serviceErrorFrom } from "../client.ts"
import { cliError, cliOutcome } from "../failure.ts"
import { findingLine } from "../findingLine.ts"
import { postMultipart } from "../multipartUpload.ts"
import { progressBar } from "../progress.ts"
import { serviceCommand } from "../run.ts"
import { userPath } from "../userPath.ts"

const LINE = {
  name: "submit",
  usage: `usage: submit <file.pck> --manifest manifest.json [--json] [--url URL] [--submit-url URL] [--token TOKEN]
  The multipart path: uploads the pack and its manifest in one request; the server scans it before recording anything.
  --submit-url   the service's {submit_api_url} (default: $PCKGATE_SUBMIT_URL, else <url>/submit-api)
  -h, --help     print this help`,
  options: { manifest: { type: "string" }, "submit-url": { type: "string" }, ...SERVICE_OPTIONS },
} as const

export const command = serviceCommand(
  LINE,
  async ({ values, positionals }, io) => {
    const [file, extra] = positionals
    if (file === undefined || extra !== undefined) throw usageError(LINE, file === undefined ? "missing <file.pck>" : `unexpected argument ${extra}`)
    if (values.manifest === undefined) throw usageError(LINE, "missing --manifest manifest.json")
    const path = userPath(io, file)
    const info = await stat(path).catch(() => null)
    if (info === null || !info.isFile()) throw cliError("no_such_file", file)
    if (!path.toLowerCase().endsWith(".pck")) throw cliError("not_a_pck", "Uploaded file must be a .pck — export the game with Godot's Export PCK/ZIP")
    if (info.size < RELEASE_MIN_BYTES) throw cliError("too_small", `${file} is ${info.size} bytes, too small for a pack (at least ${RELEASE_MIN_BYTES} bytes); export it again`)
    if (info.size > MULTIPART_MAX_BYTES) throw cliError("artifact_too_large", `${info.size} bytes is above the 2 GiB multipart limit`)
    const manifestFile = values.manifest
    const manifest = await readFile(userPath(io, manifestFile), "utf8").catch(() => {
      throw cliError("no_such_file", manifestFile)
    })
    const options = clientOptions(values, io)
    if (options.token === undefined) throw cliError("sign_in_required", "pass --token or set PCKGATE_TOKEN")
    const submitUrl = (values["submit-url"] ?? io.env["PCKGATE_SUBMIT_URL"] ?? `${options.url}/submit-api`).replace(/\/+$/, "")
    const bar = progressBar(io, "uploading", info.size)
    const reply = await postMultipart(
      `${submitUrl}/games/submit`,
      { authorization: `Bearer ${options.token}` },
      [{ name: "manifest", value: manifest, contentType: "application/json", filename: "manifest.json" }],
      { name: "pck", path, filename: basename(path), sizeBytes: info.size },
      bar.update,
    ).catch((cause: Error) => {
      throw cliError("network", `the upload did not complete (${cause.message}); run the command again`)
    })
    bar.finish(info.size)
    const what = `POST ${submitUrl}/games/submit`
    const json = values.json === true
    if (reply.status === 200) {
      const accepted = decodeReply(SubmissionOk, what, reply.status, reply.body)
      if (json) return accepted
      io.stdout(`submitted ${accepted.gameId} as ${accepted.submissionId}: ${accepted.status}\n`)
      for (const f of accepted.scan.findings) io.stdout(`${findingLine(f)} (warning)\n`)
      return null
    }
    if (reply.status === 422) {
      const refused = decodeReply(SubmissionRefused, what, reply.status, reply.body)
      if (!json) for (const f of refused.violations) io.stdout(`${findingLine(f)}\n`)
      throw cliOutcome(refused.error, `error: ${refused.error} — ${refused.detail}`, { detail: refused.detail, violations: refused.violations })
    }
    throw failureFrom(serviceErrorFrom(reply.status, reply.body, reply.retryAfter))
  },
)
