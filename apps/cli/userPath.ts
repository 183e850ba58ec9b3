// Paths on the command line are relative to the directory the user typed the command in. `npm run` first changes
// into the package's folder and passes the original one in INIT_CWD; anywhere else the working directory is it.
import { dirname, resolve } from "node:path"
import type { CliIo } from "./io.ts"

export const userDirectory = (env: CliIo["env"]): string => {
  const initCwd = env["INIT_CWD"]
  const packageJson = env["npm_package_json"]
  // Only when npm itself moved us: a script that cds elsewhere before running the CLI keeps its own directory.
  const movedByNpm = initCwd !== undefined && initCwd !== "" && packageJson !== undefined && resolve(dirname(packageJson)) === resolve(process.cwd())
  return movedByNpm ? initCwd : process.cwd()
}

export const userPath = (io: CliIo, path: string): string => resolve(userDirectory(io.env), path)
