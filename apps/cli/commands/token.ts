// `token --user <id> [--admin]`: a dev-issuer access token for a server that shares this DATA_DIR.
import { resolve } from "node:path"
import { loadDevIssuer } from "../../../adapters/identity/DevIssuer.ts"
import { usageError, withCommandLine } from "../args.ts"
import type { Command } from "../commands.ts"
import { EXIT } from "../exitCodes.ts"
import { userPath } from "../userPath.ts"

const LINE = {
  name: "token",
  usage: `usage: token --user <id> [--admin] [--data-dir <dir>]
  Prints a dev-issuer access token (valid 1 hour) on stdout, for a server using the same data directory.
  --data-dir   the server's DATA_DIR (default: $DATA_DIR, else ./data as \`npm start\` uses it)
  -h, --help   print this help`,
  options: { user: { type: "string" }, admin: { type: "boolean" }, "data-dir": { type: "string" } },
} as const

export const command: Command = {
  run: (argv, io) =>
    withCommandLine(LINE, argv, io, async ({ values, positionals }) => {
      const user = values.user
      if (user === undefined || user === "") throw usageError(LINE, "missing --user <id>")
      if (positionals.length > 0) throw usageError(LINE, `unexpected argument ${positionals[0]}`)
      if (io.env["OIDC_JWKS_URL"]) {
        io.stderr("This server uses OIDC (OIDC_JWKS_URL is set): get tokens from your identity provider; the dev issuer is disabled.\n")
        return EXIT.cannotRun
      }
      // --data-dir is typed by the user (their directory); DATA_DIR and ./data are the server's (resolved as it does).
      const dataDir = values["data-dir"] !== undefined ? userPath(io, values["data-dir"]) : resolve(io.env["DATA_DIR"] || "./data")
      const issuer = await loadDevIssuer(dataDir, io.env["DEV_ISSUER_JWK"])
      const token = await issuer.issue({ userId: user, admin: values.admin === true })
      io.stderr(`dev token for '${user}'${values.admin === true ? " (admin)" : ""}, valid 1 hour, issuer key in ${dataDir}/keys\n`)
      io.stdout(`${token}\n`)
      return EXIT.ok
    }),
}
