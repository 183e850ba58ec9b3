import { loadDevIssuer } from "../../../adapters/identity/DevIssuer.ts"
import { EXIT } from "../io.ts"
import type { Command } from "../commands.ts"
import { parseArgs } from "../args.ts"
import { resolve } from "node:path"

export const command: Command = {
  summary: "token --user <id> [--admin]   print a dev-issuer access token (1 hour) for a server using the same DATA_DIR",
  async run(argv, io) {
    const args = parseArgs(argv, { strings: ["user", "data-dir"], booleans: ["admin"] })
    if ("error" in args || typeof args.values["user"] !== "string" || args.values["user"] === "") {
      io.stderr(`usage: ${command.summary}\n`)
      return EXIT.cannotRun
    }
    if (io.env["OIDC_JWKS_URL"]) {
      io.stderr("This server uses OIDC (OIDC_JWKS_URL is set): get tokens from your identity provider; the dev issuer is disabled.\n")
      return EXIT.cannotRun
    }
    const dataDir = resolve(String(args.values["data-dir"] ?? io.env["DATA_DIR"] ?? "./data"))
    const issuer = await loadDevIssuer(dataDir, io.env["DEV_ISSUER_JWK"])
    const token = await issuer.issue({ userId: args.values["user"], admin: args.values["admin"] === true })
    io.stderr(`dev token for '${args.values["user"]}'${args.values["admin"] === true ? " (admin)" : ""}, valid 1 hour, issuer key in ${dataDir}/keys\n`)
    io.stdout(`${token}\n`)
    return EXIT.ok
  },
}
