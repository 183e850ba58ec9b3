// `release <file.pck> (--game <id> | --name <name>) --version <v>`: the release API from a creator's machine or CI, as
// six steps (apps/cli/release/): check, hash, ensure the game, upload, finalize, verify. Each finds its work done on
// a re-run, so running the same command after an interruption resumes where it stopped.
import { stat } from "node:fs/promises"
import { RELEASE_MAX_BYTES, RELEASE_MIN_BYTES } from "../../../domain/release/Limits.ts"
import { isValidVersion } from "../../../domain/release/Version.ts"
import { SERVICE_OPTIONS, usageError } from "../args.ts"
import { clientOptions, makeClient } from "../client.ts"
import { cliError } from "../failure.ts"
import { checkPack } from "../release/checkPack.ts"
import type { ReleaseRun } from "../release/context.ts"
import { ensureGame } from "../release/ensureGame.ts"
import { finalizeRelease } from "../release/finalizeRelease.ts"
import { hashPack } from "../release/hashPack.ts"
import { releasedAlready, uploadPack } from "../release/uploadPack.ts"
import { verifyDownload } from "../release/verifyDownload.ts"
import { serviceCommand } from "../run.ts"
import { userPath } from "../userPath.ts"

const LINE = {
  name: "release",
  usage: `usage: release <file.pck> (--game <gameId> | --name <name>) --version <version>
               [--skip-check] [--no-verify] [--wait] [--json] [--url URL] [--token TOKEN] [--token-command CMD]
  Checks the pack locally, hashes it, finds (or creates) the game, uploads, finalizes and downloads what the service
  will ship to verify it. Run the same command again after an interruption: it resumes.
  --name         the game of yours with this name; created when you have none
  --skip-check   leave the check to the service
  --no-verify    skip the verifying download
  --wait         sleep through a rate limit (429) and retry instead of exiting 4
  -h, --help     print this help
  Without --token or PCKGATE_TOKEN, in GitHub Actions (job permission id-token: write) or GitLab CI (PCKGATE_ID_TOKEN)
  the CI's ID token is exchanged for a 15-minute publishing token (trusted publishing; audience PCKGATE_AUDIENCE).`,
  options: {
    game: { type: "string" },
    name: { type: "string" },
    version: { type: "string" },
    "skip-check": { type: "boolean" },
    "no-verify": { type: "boolean" },
    wait: { type: "boolean" },
    ...SERVICE_OPTIONS,
  },
} as const

export const command = serviceCommand(
  LINE,
  async ({ values, positionals }, io) => {
    const [file, extra] = positionals
    const { game, name, version } = values
    if (file === undefined || extra !== undefined) throw usageError(LINE, file === undefined ? "missing <file.pck>" : `unexpected argument ${extra}`)
    if (version === undefined) throw usageError(LINE, "missing --version <version>")
    if (game !== undefined && name !== undefined) throw usageError(LINE, "--game and --name exclude each other")
    const target = game !== undefined ? { gameId: game } : name !== undefined ? { name } : undefined
    if (target === undefined) throw usageError(LINE, "missing --game <gameId> or --name <name>")
    if (!isValidVersion(version)) {
      throw cliError("invalid_request", `version '${version}' must be 1-32 of [A-Za-z0-9._-], start with a letter or digit, and not contain '..'`)
    }
    const path = userPath(io, file)
    const info = await stat(path).catch(() => null)
    if (info === null || !info.isFile()) throw cliError("no_such_file", file)
    if (info.size < RELEASE_MIN_BYTES) {
      throw cliError("too_small", `${file} is ${info.size} bytes, too small for a pack: the release API takes ${RELEASE_MIN_BYTES} to ${RELEASE_MAX_BYTES} bytes`)
    }
    if (info.size > RELEASE_MAX_BYTES) {
      throw cliError("artifact_too_large", `${file} is ${info.size} bytes; the release API takes ${RELEASE_MIN_BYTES} to ${RELEASE_MAX_BYTES} bytes (larger packs: submit)`)
    }
    const json = values.json === true
    const run: ReleaseRun = { io, client: makeClient({ ...clientOptions(values, io), gameId: game }, io), file, path, version, json, waitOnRateLimit: values.wait === true }

    if (values["skip-check"] !== true) await checkPack(run)
    const declaration = await hashPack(run, info.size)
    const gameId = await ensureGame(run, target)
    let status = await releasedAlready(run, gameId, declaration)
    if (status === null) {
      await uploadPack(run, gameId, declaration)
      status = await finalizeRelease(run, gameId, declaration)
    } else {
      io.stderr(`version ${version} is already released with these bytes\n`)
    }
    const verified = values["no-verify"] === true ? null : await verifyDownload(run, gameId, declaration)

    const { sha256, sizeBytes } = declaration
    if (json) return { ok: true, gameId, version, sha256, sizeBytes, status, verified }
    io.stdout(`released ${gameId} ${version} (sha256 ${sha256}, ${sizeBytes} bytes): ${status}${verified === true ? ", download verified" : ""}\n`)
    return null
  },
)
