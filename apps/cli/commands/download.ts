// `download <gameId> --version v [-o file]`: fetches a release and verifies its SHA-256 before keeping it.
import { resolve } from "node:path"
import { rm } from "node:fs/promises"
import { parseArgs } from "../args.ts"
import { CliFailure, clientOptions, makeClient, SERVICE_OPTIONS } from "../client.ts"
import type { Command } from "../commands.ts"
import { downloadFile } from "../files.ts"
import { EXIT } from "../io.ts"
import { progressBar } from "../progress.ts"
import { runCommand } from "../run.ts"

const USAGE = "usage: download <gameId> --version <v> [-o <file>] [--json] [--url URL] [--token TOKEN]"

export const command: Command = {
  summary: "download <gameId> --version v [-o file]   download a release and verify its SHA-256",
  run: (argv, io) =>
    runCommand(io, argv.includes("--json"), async () => {
      const args = parseArgs(argv.map((a) => (a === "-o" ? "--output" : a)), { strings: ["version", "output", ...SERVICE_OPTIONS], booleans: ["json"] })
      if ("error" in args || args.positionals.length !== 1 || typeof args.values["version"] !== "string") throw new CliFailure(EXIT.cannotRun, USAGE)
      const gameId = args.positionals[0]!
      const version = args.values["version"]
      const client = makeClient(clientOptions(args.values, io), io)
      const link = await client.expect<{ url: string; sha256: string }>("GET", `/api/games/${encodeURIComponent(gameId)}/releases/${encodeURIComponent(version)}/download-url`)
      const path = resolve(String(args.values["output"] ?? `${gameId}-${version}.pck`))
      let bar = null as ReturnType<typeof progressBar> | null
      const result = await downloadFile(link.url, path, (done, total) => (bar ??= progressBar(io, "downloading", total)).update(done)).catch((cause: Error) => {
        throw new CliFailure(EXIT.serviceFailure, `error: network — the download was cut off (${cause.message}); run the command again`)
      })
      if (!result.ok) throw new CliFailure(EXIT.serviceFailure, `error: download_failed — storage answered ${result.status}`)
      bar?.finish(result.sizeBytes)
      if (result.sha256 !== link.sha256) {
        await rm(path, { force: true })
        throw new CliFailure(EXIT.serviceFailure, `error: checksum_mismatch — downloaded ${result.sha256}, expected ${link.sha256}; nothing was kept`, { error: "checksum_mismatch" })
      }
      if (args.values["json"] === true) return { ok: true, path, sha256: result.sha256, sizeBytes: result.sizeBytes }
      io.stdout(`${path} (${result.sizeBytes} bytes, sha256 ${result.sha256} verified)\n`)
      return null
    }),
}
