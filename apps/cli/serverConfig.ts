// The server's configuration as the operator commands (migrate, gc) see it: the environment, with --data-dir overriding
// DATA_DIR. Configuration errors are printed; null means the command cannot run.
import { readConfig, type ServerConfig } from "../server/config.ts"
import type { CliIo } from "./io.ts"

export const serverConfigFor = (dataDir: string | boolean | undefined, io: CliIo): ServerConfig | null => {
  const parsed = readConfig(typeof dataDir === "string" ? { ...io.env, DATA_DIR: dataDir } : io.env)
  if ("config" in parsed) return parsed.config
  for (const error of parsed.errors) io.stderr(`config error: ${error}\n`)
  return null
}
