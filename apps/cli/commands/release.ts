// `release <file.pck> (--game <id> | --name <name>) --version <v>`: the release API from a creator's machine or CI.
// Re-running after an interruption picks up where it stopped: the game is found by name, a 412 on the PUT means the
// object is already stored, and a finalized release with the same digest counts as done.
import { stat } from "node:fs/promises"
import { resolve } from "node:path"
import { isValidVersion } from "../../../domain/release/Version.ts"
import { RELEASE_MAX_BYTES, RELEASE_MIN_BYTES } from "../../../domain/release/Limits.ts"
import { parseArgs } from "../args.ts"
import { CliFailure, type Client, clientOptions, makeClient, SERVICE_OPTIONS } from "../client.ts"
import type { Command } from "../commands.ts"
import { hashFile, putFile } from "../files.ts"
import { type CliIo, EXIT } from "../io.ts"
import { progressBar } from "../progress.ts"
import { runCommand, withRateLimitWait } from "../run.ts"
import { command as check } from "./check.ts"

const USAGE = `usage: release <file.pck> (--game <gameId> | --name <name>) --version <version>
               [--skip-check] [--no-verify] [--wait] [--json] [--url URL] [--token TOKEN] [--token-command CMD]`

const resolveGame = async (client: Client, io: CliIo, game: string | undefined, name: string | undefined, wait: boolean) => {
  if (game !== undefined) return game
  const mine = await client.expect<{ games: Array<{ gameId: string; name: string; kind: string }> }>("GET", "/api/me/games")
  const existing = mine.games.find((g) => g.name === name && g.kind === "engine")
  if (existing !== undefined) return existing.gameId
  io.stderr(`creating game '${name}'\n`)
  const created = await withRateLimitWait(io, wait, () => client.send("POST", "/api/games/engine", { name }))
  return created.gameId as string
}

/** A release that already exists counts as done when it holds the same bytes (a re-run after finalize). */
const alreadyReleased = async (client: Client, gameId: string, version: string, sha256: string) => {
  const reply = await client.send("GET", `/api/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}`)
  return reply.ok && reply.body.sha256 === sha256 ? reply.body : null
}

export const command: Command = {
  summary: "release <file.pck> (--game <id> | --name <name>) --version <v>   check, hash, upload, finalize and verify a release",
  run: (argv, io) =>
    runCommand(io, argv.includes("--json"), async () => {
      const args = parseArgs(argv, { strings: ["game", "name", "version", ...SERVICE_OPTIONS], booleans: ["skip-check", "no-verify", "wait", "json"] })
      if ("error" in args) throw new CliFailure(EXIT.cannotRun, `${args.error}\n${USAGE}`)
      const [file, ...extra] = args.positionals
      const { game, name, version } = args.values as Record<string, string | undefined>
      if (file === undefined || extra.length > 0 || version === undefined || (game === undefined) === (name === undefined)) {
        throw new CliFailure(EXIT.cannotRun, USAGE)
      }
      if (!isValidVersion(version)) throw new CliFailure(EXIT.cannotRun, `error: invalid_request — version '${version}' must be 1-32 of [A-Za-z0-9._-], start with a letter or digit, and not contain '..'`)
      const path = resolve(file)
      const info = await stat(path).catch(() => null)
      if (info === null || !info.isFile()) throw new CliFailure(EXIT.cannotRun, `error: no such file — ${file}`)
      if (info.size < RELEASE_MIN_BYTES || info.size > RELEASE_MAX_BYTES) {
        throw new CliFailure(EXIT.cannotRun, `error: artifact_too_large — ${file} is ${info.size} bytes; the release API takes ${RELEASE_MIN_BYTES} to ${RELEASE_MAX_BYTES} bytes`)
      }
      const json = args.values["json"] === true
      const wait = args.values["wait"] === true

      let checkOutput = ""
      if (args.values["skip-check"] !== true) {
        const captured: CliIo = { ...io, stdout: (t) => void (checkOutput += t) }
        const code = await check.run([path, "--release-version", version, ...(json ? ["--json"] : [])], json ? captured : io)
        if (code !== EXIT.ok) {
          throw new CliFailure(code, code === EXIT.rejectedOrFindings ? "error: findings — the local check found blocking problems; fix them (or pass --skip-check to let the server decide)" : `error: check — cannot check ${file}`, json ? { check: JSON.parse(checkOutput || "null") } : {})
        }
      }

      const client = makeClient(clientOptions(args.values, io), io)
      const hashing = progressBar(io, "hashing  ", info.size)
      const { sha256, sizeBytes } = await hashFile(path, hashing.update)
      hashing.finish(sizeBytes)
      const gameId = await resolveGame(client, io, game, name, wait)
      const declaration = { version, sha256, sizeBytes }
      const base = `/api/games/${encodeURIComponent(gameId)}/releases`

      const done = await alreadyReleased(client, gameId, version, sha256)
      let release = done
      if (release === null) {
        const presigned = await withRateLimitWait(io, wait, () => client.send("POST", `${base}/upload-url`, declaration))
        const uploading = progressBar(io, "uploading", sizeBytes)
        const put = await putFile(presigned.uploadUrl, presigned.headers, path, sizeBytes, uploading.update).catch((cause: Error) => {
          throw new CliFailure(EXIT.serviceFailure, `error: network — the upload was cut off (${cause.message}); run the same command again to resume`)
        })
        uploading.finish(sizeBytes)
        if (put.status === 412) io.stderr("the object is already stored (412): going on to finalize\n")
        else if (put.status !== 200) throw new CliFailure(EXIT.serviceFailure, `error: upload_failed — storage answered ${put.status}: ${put.body.slice(0, 300)}`)
        const finalized = await withRateLimitWait(io, wait, async () => {
          const reply = await client.send("POST", `${base}/finalize`, declaration)
          if (!reply.ok && reply.error.code === "version_exists") {
            const existing = await alreadyReleased(client, gameId, version, sha256)
            if (existing !== null) return { ok: true as const, status: 200, body: existing, headers: new Headers() }
          }
          if (!reply.ok && (reply.error.code === "checksum_mismatch" || reply.error.code === "size_mismatch")) {
            throw new CliFailure(EXIT.serviceFailure, `error: ${reply.error.code} — ${reply.error.detail}`, { error: reply.error.code })
          }
          return reply
        })
        release = finalized
      } else {
        io.stderr(`version ${version} is already released with these bytes\n`)
      }

      let verified: boolean | null = null
      if (args.values["no-verify"] !== true) {
        const link = await client.expect<{ url: string; sha256: string }>("GET", `${base}/${encodeURIComponent(version)}/download-url`)
        const response = await fetch(link.url)
        if (!response.ok || response.body === null) throw new CliFailure(EXIT.serviceFailure, `error: download_failed — storage answered ${response.status}`)
        const { createHash } = await import("node:crypto")
        const hash = createHash("sha256")
        for await (const chunk of response.body) hash.update(chunk)
        const shipped = hash.digest("hex")
        if (shipped !== sha256 || link.sha256 !== sha256) {
          throw new CliFailure(EXIT.serviceFailure, `error: checksum_mismatch — the service would ship ${shipped} (key says ${link.sha256}), not your ${sha256}`, { error: "checksum_mismatch" })
        }
        verified = true
      }
      const result = { ok: true, gameId, version, sha256, sizeBytes, status: release.status, verified }
      if (json) return result
      io.stdout(`released ${gameId} ${version} (sha256 ${sha256}, ${sizeBytes} bytes): ${release.status}${verified ? ", download verified" : ""}\n`)
      return null
    }),
}

