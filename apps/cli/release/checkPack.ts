// Step 1: the local check, the same scanner the service runs, with the release API's rules for this version.
import { command as check } from "../commands/check.ts"
import { EXIT } from "../exitCodes.ts"
import { cliError, CliFailure } from "../failure.ts"
import type { CliIo } from "../io.ts"
import type { ReleaseRun } from "./context.ts"

export const checkPack = async (run: ReleaseRun): Promise<void> => {
  let output = ""
  // With --json, the check's report goes into the one JSON result instead of onto stdout.
  const io: CliIo = run.json ? { ...run.io, stdout: (text) => void (output += text) } : run.io
  const code = await check.run([run.path, "--release-version", run.version, ...(run.json ? ["--json"] : [])], io)
  if (code === EXIT.ok) return
  const report: unknown = output === "" ? null : JSON.parse(output)
  if (code === EXIT.rejectedOrFindings) {
    throw cliError("findings", "the local check found blocking problems; fix them (or pass --skip-check to let the server decide)", run.json ? { check: report } : {})
  }
  throw new CliFailure(EXIT.cannotRun, `error: check — cannot check ${run.file}`, { error: "check", detail: `cannot check ${run.file}` })
}
