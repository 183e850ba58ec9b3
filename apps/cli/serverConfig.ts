// The server's configuration as the operator commands (migrate, gc) see it: the environment, with --data-dir (a path
// the user typed, so relative to their directory) overriding DATA_DIR. Configuration errors are printed; null means
// the command cannot run.
import { readConfig, type ServerConfig } from "../server/config.ts"
import type { CliIo } from "./io.ts"
import { userPath } from "./userPath.ts"

export const serverConfigFor = (dataDir: string | undefined, io: CliIo): ServerConfig | null => {
  const parsed = readConfig(dataDir !== undefined ? { ...io.env, DATA_DIR: userPath(io, dataDir) } : io.env)
  if ("config" in parsed) return parsed.config
  for (const error of parsed.errors) io.stderr(`config error: ${error}\n`)
  return null
}
