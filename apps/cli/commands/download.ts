// `download <gameId> --version v [-o file]`: fetches a release and verifies its SHA-256 before keeping it.
import { rm } from "node:fs/promises"
import { DownloadUrl } from "../../../adapters/http/openapi/schemas.ts"
import { SERVICE_OPTIONS, usageError } from "../args.ts"
import { clientOptions, makeClient } from "../client.ts"
import { cliError } from "../failure.ts"
import { downloadFile } from "../files.ts"
import { progressBar } from "../progress.ts"
import { serviceCommand } from "../run.ts"
import { userPath } from "../userPath.ts"

const LINE = {
  name: "download",
  usage: `usage: download <gameId> --version <v> [-o <file>] [--json] [--url URL] [--token TOKEN]
  Downloads the release and verifies its SHA-256; a file that does not match is not kept.
  -o, --output   where to write it (default <gameId>-<version>.pck in the current directory)
  -h, --help     print this help`,
  options: { version: { type: "string" }, output: { type: "string", short: "o" }, ...SERVICE_OPTIONS },
} as const

export const command = serviceCommand(
  LINE,
  async ({ values, positionals }, io) => {
    const [gameId, extra] = positionals
    const version = values.version
    if (gameId === undefined || extra !== undefined) throw usageError(LINE, gameId === undefined ? "missing <gameId>" : `unexpected argument ${extra}`)
    if (version === undefined) throw usageError(LINE, "missing --version <v>")
    const client = makeClient({ ...clientOptions(values, io), gameId }, io)
    const link = await client.call("GET", `/api/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}/download-url`, DownloadUrl)
    const path = userPath(io, values.output ?? `${gameId}-${version}.pck`)
    let bar = null as ReturnType<typeof progressBar> | null
    const result = await downloadFile(link.url, path, (done, total) => (bar ??= progressBar(io, "downloading", total)).update(done)).catch((cause: Error) => {
      throw cliError("network", `the download was cut off (${cause.message}); run the command again`)
    })
    if (!result.ok) throw cliError("download_failed", `storage answered ${result.status}`)
    bar?.finish(result.sizeBytes)
    if (result.sha256 !== link.sha256) {
      await rm(path, { force: true })
      throw cliError("checksum_mismatch", `downloaded ${result.sha256}, expected ${link.sha256}; nothing was kept`)
    }
    if (values.json === true) return { ok: true, path, sha256: result.sha256, sizeBytes: result.sizeBytes }
    io.stdout(`${path} (${result.sizeBytes} bytes, sha256 ${result.sha256} verified)\n`)
    return null
  },
)
