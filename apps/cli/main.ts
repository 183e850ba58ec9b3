// `npm run -s cli -- <command> …` (the `pckgate` bin in the package): dispatches to the command table.
import { enableCompileCache } from "node:module"
import { dispatch } from "./dispatch.ts"

// Commands are imported on demand; with Node's compile cache, later runs skip compiling (and stripping the types of)
// their modules: faster starts, and a standalone `check` stays far under 100 MB.
enableCompileCache()

process.exitCode = await dispatch(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
  stderrIsTty: process.stderr.isTTY === true,
})
