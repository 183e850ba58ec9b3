// `submit <file.pck> --manifest manifest.json`: the multipart path (spec §4.6) — one request, scanned before anything is
// recorded. Findings print as `file:line rule message`. Exit 0 in review, 1 findings, 2 cannot run, 3 service, 4 rate limited.
import { readFile, stat } from "node:fs/promises"
import { basename, resolve } from "node:path"
import { MULTIPART_MAX_BYTES } from "../../../domain/release/Limits.ts"
import { parseArgs } from "../args.ts"
import { CliFailure, clientOptions, failureFrom, SERVICE_OPTIONS } from "../client.ts"
import type { Command } from "../commands.ts"
import { EXIT } from "../io.ts"
import { postMultipart } from "../multipartUpload.ts"
import { progressBar } from "../progress.ts"
import { runCommand } from "../run.ts"

const USAGE = "usage: submit <file.pck> --manifest manifest.json [--json] [--url URL] [--submit-url URL] [--token TOKEN]"

interface FindingLike {
  readonly file: string
  readonly line: number | null
  readonly rule: string
  readonly message: string
  readonly severity?: string
}

const findingLine = (f: FindingLike) => `${f.line === null ? f.file : `${f.file}:${f.line}`} ${f.rule} ${f.message}`

export const command: Command = {
  summary: "submit <file.pck> --manifest manifest.json   the multipart path: upload, scan and submit for review in one request",
  run: (argv, io) =>
    runCommand(io, argv.includes("--json"), async () => {
      const args = parseArgs(argv, { strings: ["manifest", "submit-url", ...SERVICE_OPTIONS], booleans: ["json"] })
      if ("error" in args || args.positionals.length !== 1 || typeof args.values["manifest"] !== "string") {
        throw new CliFailure(EXIT.cannotRun, USAGE)
      }
      const path = resolve(args.positionals[0]!)
      const info = await stat(path).catch(() => null)
      if (info === null || !info.isFile()) throw new CliFailure(EXIT.cannotRun, `error: no such file — ${args.positionals[0]}`)
      if (!path.toLowerCase().endsWith(".pck")) throw new CliFailure(EXIT.cannotRun, "error: Uploaded file must be a .pck — export the game with Godot's Export PCK/ZIP")
      if (info.size > MULTIPART_MAX_BYTES) throw new CliFailure(EXIT.cannotRun, `error: artifact_too_large — ${info.size} bytes is above the 2 GiB multipart limit`)
      const manifest = await readFile(resolve(args.values["manifest"]), "utf8").catch(() => {
        throw new CliFailure(EXIT.cannotRun, `error: no such file — ${args.values["manifest"]}`)
      })
      const options = clientOptions(args.values, io)
      if (options.token === undefined) throw new CliFailure(EXIT.cannotRun, "error: sign_in_required — pass --token or set PCKGATE_TOKEN")
      const submitUrl = String(args.values["submit-url"] ?? io.env["PCKGATE_SUBMIT_URL"] ?? `${options.url}/submit-api`).replace(/\/+$/, "")
      const bar = progressBar(io, "uploading", info.size)
      const reply = await postMultipart(
        `${submitUrl}/games/submit`,
        { authorization: `Bearer ${options.token}` },
        [{ name: "manifest", value: manifest, contentType: "application/json", filename: "manifest.json" }],
        { name: "pck", path, filename: basename(path), sizeBytes: info.size },
        bar.update,
      ).catch((cause: Error) => {
        throw new CliFailure(EXIT.serviceFailure, `error: network — the upload did not complete (${cause.message}); run the command again`)
      })
      bar.finish(info.size)
      let body: any
      try {
        body = JSON.parse(reply.body)
      } catch {
        throw new CliFailure(EXIT.serviceFailure, `error: unexpected_response — ${reply.status}: ${reply.body.slice(0, 200)}`)
      }
      const json = args.values["json"] === true
      if (reply.status === 200 && body.ok === true) {
        if (json) return body
        io.stdout(`submitted ${body.gameId} as ${body.submissionId}: ${body.status}\n`)
        for (const f of (body.scan?.findings ?? []) as ReadonlyArray<FindingLike>) io.stdout(`${findingLine(f)} (warning)\n`)
        return null
      }
      if (reply.status === 422 && Array.isArray(body.violations)) {
        if (!json) for (const f of body.violations as ReadonlyArray<FindingLike>) io.stdout(`${findingLine(f)}\n`)
        throw new CliFailure(EXIT.rejectedOrFindings, `error: ${body.error} — ${body.detail}`, { error: body.error, detail: body.detail, violations: body.violations })
      }
      throw failureFrom({ status: reply.status, code: String(body.error), detail: String(body.detail), ...(typeof body.retryAfterSeconds === "number" ? { retryAfterSeconds: body.retryAfterSeconds } : {}) })
    }),
}
